package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// R2's budget rules (agents-sessions-environments.md "Additions from R2"
// §C), answered with error.details.error_code:
//
//   - create: every model the session can run (its agent's and each roster
//     or predefined agent's) needs a public list price, else 400
//     model_not_budgetable. The fake's models all have one except those
//     whose id starts with "unpriced".
//   - update: an object replaces, null removes for good; adding one to a
//     session created without (or after removal) is 400
//     budget_create_only; an amount at or below the list cost already
//     spent is 400 budget_not_raised; a terminated session's budget does
//     not change (400).

// The budget error codes.
const (
	codeBudgetCreateOnly    = "budget_create_only"
	codeBudgetNotRaised     = "budget_not_raised"
	codeModelNotBudgetable  = "model_not_budgetable"
	unpricedModelPrefix     = "unpriced"
	budgetTerminatedMessage = "budget: a terminated session's budget cannot be changed"
)

// writeCoded answers a 400 invalid_request_error with error_code code
// (none when "").
func writeCoded(w http.ResponseWriter, r *http.Request, code, msg string) {
	e := errorDetail{Type: wire.ErrInvalidRequest, Message: msg}
	if code != "" {
		e.Details = &codedDetails{ErrorCode: code}
	}
	writeJSON(w, http.StatusBadRequest, errorBody{Type: "error", RequestID: requestID(r), Error: e})
}

// budgetUpdateRefusal checks a session update's budget member against
// the session; it returns the error code and message of a refusal, or ""
// and "". s's store lock is held.
func budgetUpdateRefusal(s *storedSession, raw json.RawMessage) (code, msg string) {
	if raw == nil {
		return "", ""
	}
	if s.rec.Status == "terminated" {
		return "", budgetTerminatedMessage
	}
	if isNullJSON(raw) {
		return "", ""
	}
	if s.rec.Budget == nil {
		return codeBudgetCreateOnly, "budget: a budget cannot be added after the session was created"
	}
	bw, err := parseBudget(raw)
	if err != nil {
		return "", "" // apply reports it
	}
	if amountMicros(bw.MaxListCost.Amount) <= s.costMicros {
		return codeBudgetNotRaised, "budget: the new budget must be above the list cost already spent"
	}
	return "", ""
}

// unbudgetableModel returns the first model of the snapshot (and its
// roster) without a list price, or "".
func (b *sessionCreateBody) unbudgetableModel() string {
	agents := append([]json.RawMessage{encodeJSON(b.snapshot)}, b.roster...)
	for _, raw := range agents {
		var a struct {
			Model json.RawMessage `json:"model"`
		}
		_ = json.Unmarshal(raw, &a)
		var id string
		if json.Unmarshal(a.Model, &id) != nil {
			var m struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(a.Model, &m)
			id = m.ID
		}
		if strings.HasPrefix(id, unpricedModelPrefix) {
			return id
		}
	}
	return ""
}
