// Command tsdb is a small time-series database on package engine: it takes
// InfluxDB line protocol over HTTP, keeps a series index and the points in
// one engine, chosen by name, answers range queries with optional
// downsampling, and deletes points past a retention age.
//
//	go run ./examples/tsdb -engine pebble -dir /tmp/x -listen 127.0.0.1:8086
//
//	curl -XPOST 'http://127.0.0.1:8086/write?precision=s' --data-binary 'cpu,host=a usage=0.5,procs=12i 1700000000'
//	curl -G http://127.0.0.1:8086/query --data-urlencode 'series=cpu,host=a usage' --data-urlencode step=1h
//
// Flags:
//
//	-engine name              storage engine, any engine.Names() that opens in process (default pebble)
//	-dir path                 the database's directory, created if absent (required)
//	-listen addr              address to serve HTTP on (default 127.0.0.1:8086, loopback)
//	-sync batch|none          batch: a write is on disk when acknowledged (default batch)
//	-retention age            delete points older than age, such as 24h (default 0: keep all)
//	-retention-interval d     time between retention passes (default 1m)
//	-max-body bytes           largest /write body (default 16 MiB)
//	-max-points n             most points or buckets one query returns (default 100000)
//
// It listens before it opens the store, so an address in use leaves nothing
// behind, and logs every retention pass, which deletes data.
//
// SIGINT or SIGTERM shuts it down cleanly: it stops taking connections, waits
// up to 10 s for requests in flight, stops retention and closes the engine.
//
// # Data model
//
// A series is one field of one measurement and tag set, named by the line
// protocol of that line up to the field's "=": measurement, tags sorted by
// key, a space, the field key, escaped as line protocol escapes them:
//
//	cpu,host=a,region=eu usage
//
// so the line "cpu,region=eu,host=a usage=0.5,procs=12i" writes two series,
// "cpu,host=a,region=eu usage" and "cpu,host=a,region=eu procs". Fields are
// integers (12i, stored as int64) or floats (0.5, stored as float64);
// unsigned (12u), string and boolean fields are refused. A series' type is
// that of its first point, and a point of the other type is refused, as
// InfluxDB refuses a field type conflict. Timestamps are nanoseconds from 1970
// to 2262 (precision ns, us, ms or s); a line without one takes the server's
// clock. A point written again at the same time replaces the first.
//
// # HTTP API
//
// Every answer is JSON. An error is {"error": "..."} naming the problem, with
// status 400 for a bad request (a malformed line, an unsupported type, a type
// conflict, a bad or unknown parameter, a result above -max-points), 404 for
// an unknown series or path, 405 for a wrong method, 409 for POST /retention
// without -retention, 413 for a body above -max-body or a batch the engine
// finds too large, 507 when the engine's disk is full, 500 otherwise.
//
//	POST /write[?precision=ns|us|ms|s]
//	     body: line protocol. One request is one engine batch, all or nothing,
//	     new series' index entries included. -> {"points": n, "series_created": m}
//	GET  /query?series=name[&start=t][&end=t][&step=duration][&precision=ns|us|ms|s]
//	     the series' points with start <= time < end (nanoseconds since 1970,
//	     or units of precision, which the answer's times are in too; or RFC
//	     3339; default all). -> {"series", "id", "type", "start", "end",
//	     "points": [{"time", "value"}]}. With step (such as 10s, 1h), one
//	     bucket per step holding points, aligned on start:
//	     "step", "buckets": [{"time", "count", "min", "max", "mean"}]; min and
//	     max are the series' type, mean a float.
//	GET  /series
//	     the index. -> {"series": [{"name", "id", "type"}]}, sorted by name.
//	POST /retention
//	     apply retention now. -> {"before": cutoff, "series": n}
//
// # InfluxDB 1.x clients
//
// Enough of InfluxDB 1.x's HTTP API for its client libraries to write and to
// read one series back, unchanged (TestInfluxClient runs InfluxData's Go
// client):
//
//	GET|HEAD /ping -> 204, with X-Influxdb-Version (on every answer)
//	POST /write?db=...&precision=n|ns|u|us|ms|s: as above; db, rp, u, p and
//	     consistency are taken and ignored (one database, no users)
//	GET|POST /query?q=SELECT ...[&db=...][&epoch=ns|u|ms|s|m|h]
//	     one statement: SELECT field, or mean, min, max or count(field),
//	     FROM measurement [WHERE tag = 'value' AND ... AND time >= t AND
//	     time < t] [GROUP BY time(d)], t an integer (ns, or with a unit:
//	     1700000000s), a quoted RFC 3339 time or now() - d. It answers
//	     InfluxDB's {"results": [{"statement_id": 0, "series": [{"name",
//	     "columns": ["time", field or function], "values"}]}]}, times in
//	     RFC 3339 or, with epoch, integers in that unit; buckets aligned on
//	     the epoch as InfluxDB aligns them, empty ones left out (InfluxDB
//	     fills them with null). A SELECT whose tags match several series is
//	     refused (InfluxDB would merge them), one matching none answers no
//	     series.
//
// An error quotes at most 100 bytes of what it names.
//
// # Storage
//
// Points use package engine/tskey's key layout: series id, timestamp and
// sequence number as three big-endian uint64s, the sequence number 0 so that
// a rewrite replaces. A query is one iterator bounded by tskey.TimeBounds.
// Values carry no type tag, the index keeps each series' type: an integer is a
// zigzag varint (1 byte for -64..63, at most 10); a float is its IEEE 754 bits
// byte-reversed as a uvarint when that takes at most 7 bytes (short binary
// fractions: 0 takes 1 byte, 42 takes 3), else its 8 bytes big-endian.
//
// The series index is in the same engine, under keys beginning with 0xff:
// 0xff 'i' name -> series id (8 bytes, big-endian) and type ('i' or 'f'),
// and 0xff 'n' -> the next id to allocate. Ids start at 1 and stay below
// 1<<56, so every point key begins with 0x00 and no point scan meets the
// index. A write that creates series puts their entries and the next id in
// its batch, so an acknowledged series is on disk with its points and no id
// is handed out twice; the index is read into memory at start. A series name
// is at most 509 bytes, so that its key fits every engine
// (engine.CommonLimits).
//
// # Retention
//
// With -retention, a pass deletes the points of every series older than
// now minus the age, one DeleteRange per series over tskey.TimeBounds(id, 0,
// cutoff): at start, every -retention-interval, and on POST /retention.
// Index entries stay when all of a series' points have expired, so its id is
// never reused.
package main
