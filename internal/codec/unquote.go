package codec

// Unquote decodes the JSON string data, as the decoder does for a string
// field: for the few hand-written fast paths outside this package.
func Unquote(data []byte) (string, error) { return unquote(data) }
