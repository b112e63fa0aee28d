package shapes

// A Tool is a table built in a loop. Its validate is hand-written where a
// variant has a rule (Hammer) and generated where it has none (Saw).
type Tool interface {
	isTool()
	validate(path string) error
}

//mms:variants Tool
var toolRows = []row{{tool: Hammer{}}, {tool: Saw{}}}

type Hammer struct{ Weight int }

func (h Hammer) validate(path string) error {
	if h.Weight < 0 {
		return errNegative
	}
	return nil
}

type Saw struct{}
