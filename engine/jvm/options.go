package jvm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tsbench/storage/engine"
)

// Options are LmdbJava's own options: [lmdbjava] in a config file,
// -set lmdbjava.KEY=VALUE on the command line.
type Options struct {
	// Buffer is the buffer LmdbJava hands LMDB's keys and values in, the
	// 2016 report's two variants: "bytebuffer" (LmdbJava's ByteBuffer
	// proxy) or "agrona" (Agrona's DirectBuffer). Default "bytebuffer".
	Buffer string `toml:"buffer" json:"buffer"`
}

// buffers are the values of Options.Buffer, the default first.
var buffers = []string{"bytebuffer", "agrona"}

// Resolve fills in the default and checks the buffer's name.
func (o Options) Resolve(engine.Options) (any, error) {
	if o.Buffer == "" {
		o.Buffer = buffers[0]
	}
	if !slices.Contains(buffers, o.Buffer) {
		return nil, fmt.Errorf("%w: lmdbjava buffer %q: use %s", engine.ErrInvalidOptions, o.Buffer, strings.Join(buffers, " or "))
	}
	return o, nil
}
