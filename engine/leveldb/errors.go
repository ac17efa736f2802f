package leveldb

import "errors"

// ErrLibrary wraps a failure status reported by LevelDB; the message
// carries LevelDB's own text. A status that means one of engine's shared
// sentinels (corruption, a locked directory, a full disk) wraps that too.
var ErrLibrary = errors.New("leveldb")
