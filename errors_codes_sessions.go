package mms

// The session budget codes of R2 (error.details.error_code of a 400).
const (
	// ErrorCodeBudgetCreateOnly: a budget can only be set when the session
	// is created (and, once removed, not again).
	ErrorCodeBudgetCreateOnly ErrorCode = "budget_create_only"
	// ErrorCodeBudgetNotRaised: the new budget is at or below the list
	// cost the session already spent.
	ErrorCodeBudgetNotRaised ErrorCode = "budget_not_raised"
	// ErrorCodeModelNotBudgetable: a model the session can run has no
	// public list price, so it cannot have a budget.
	ErrorCodeModelNotBudgetable ErrorCode = "model_not_budgetable"
)
