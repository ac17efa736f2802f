package kyotocabinet

import "errors"

// ErrLibrary wraps a failure reported by Kyoto Cabinet; the message
// carries its error name and text. A broken or foreign file, and a file
// another process holds, wrap engine.ErrCorrupt and engine.ErrLocked as
// well.
var ErrLibrary = errors.New("kyotocabinet")
