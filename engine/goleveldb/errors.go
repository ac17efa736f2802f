package goleveldb

import "errors"

// errStats reports a "leveldb.stats" property Busy cannot read, which
// means goleveldb changed its format: update parseStats.
var errStats = errors.New("goleveldb: unexpected leveldb.stats format")
