package hyperleveldb

// #include "hyperleveldb/c.h"
import "C"

import "strconv"

// Version reports the LevelDB version HyperLevelDB 1.0.2 says it is based
// on, "1.14", as its C API reports it; it has no version call of its own.
func Version() string {
	return strconv.Itoa(int(C.hyperleveldb_major_version())) + "." + strconv.Itoa(int(C.hyperleveldb_minor_version()))
}
