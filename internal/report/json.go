package report

import (
	"encoding/json"
	"io"
)

// WriteJSON writes v, a whole report, as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
