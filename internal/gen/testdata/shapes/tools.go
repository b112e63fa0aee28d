package shapes

// A Tool is a table built in a loop.
type Tool interface{ isTool() }

//mms:variants Tool
var toolRows = []row{{tool: Hammer{}}, {tool: Saw{}}}

type Hammer struct{}

type Saw struct{}
