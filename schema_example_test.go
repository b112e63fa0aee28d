package mms_test

import (
	"fmt"

	mms "github.com/mms-sdk/mms-go"
)

func ExampleSchemaFor() {
	type Weather struct {
		City  string `json:"city" description:"city name"`
		Unit  string `json:"unit" enum:"celsius,fahrenheit"`
		Hours *int   `json:"hours,omitempty"`
	}
	schema, err := mms.SchemaFor[Weather]()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(schema))
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"city name"},"unit":{"type":"string","enum":["celsius","fahrenheit"]},"hours":{"type":["integer","null"]}},"required":["city","unit"],"additionalProperties":false}
}
