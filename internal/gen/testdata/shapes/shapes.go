package shapes

import "encoding/json"

// A Shape is a [Circle], a [Square] or a [Polygon]; [UnknownShape] keeps
// any other.
type Shape interface {
	json.Marshaler
	EventType() string
	EventID() string
	isShape()
}

var shapeUnion = codec.NewUnion[Shape]("Shape", UnknownShape{}).
	Add("circle", Circle{}).
	AddSpec("square", Square{}, squareSpec).
	Add(polygonType, Polygon{})

// Circle has an ID, so its EventID is derived.
type Circle struct {
	ID     string                     `json:"id"`
	Radius float64                    `json:"radius"`
	Extra  map[string]json.RawMessage `json:"-"`
}

// Square writes its own EventID, which the generator leaves alone.
//
//mms:json request
type Square struct {
	Side float64 `json:"side"`
}

func (Square) EventID() string { return "sq" }

// Polygon's wire name is a constant: its EventType is written by hand.
type Polygon struct{ Sides int }

func (Polygon) EventType() string { return polygonType }

type UnknownShape struct {
	Type string
	Raw  json.RawMessage
}

// EventID of an Unknown variant is written by hand.
func (UnknownShape) EventID() string { return "" }

// Styles is a record with a fixed "type".
//
//mms:json type=style
type Style struct{ Color string }

// Sizes registers with a spec.
//
//mms:json spec=sizesSpec
type Sizes []int

// ShapeParams is a request type by its name.
//
//mms:json
type ShapeParams struct{ Shape Shape }

// Plain is registered as an object.
//
//mms:json
type Plain struct{ N int }
