package kyotocabinet

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

// Options are Kyoto Cabinet's own settings, the [kyotocabinet] table of a
// config file. A zero field means its default; the defaults are the
// tuning of the 2011 LevelDB report (TSMALL, TLINEAR, LZO, 1 KiB pages,
// a 256 MiB map), except the page cache, which is the shared cache_size.
// Tuning options, page size and compressor are fixed when the file is
// created: later opens use the file's (see the package doc).
type Options struct {
	// TuneOptions are TreeDB's tune_options as letters: "s" for TSMALL
	// (32-bit record addresses: smaller records, a file of at most 1 TiB),
	// "l" for TLINEAR (hash collisions chained in a list rather than a
	// tree: smaller records, slower with many collisions), or "none".
	// Compression (TCOMPRESS) follows the shared disable_compression.
	// Default "sl".
	TuneOptions string `toml:"tune_options"`
	// Compressor compresses the pages unless disable_compression is set:
	// "lzo", "zlib" or "lzma". Default "lzo" (the report's; Kyoto Cabinet's
	// own default is zlib).
	Compressor string `toml:"compressor"`
	// PageSize is the size in bytes a leaf page grows to before it splits.
	// At most 1 MiB. Default 1024 (Kyoto Cabinet's own default is 8192).
	PageSize int `toml:"page_size"`
	// MapSize is how many bytes of the file are memory-mapped; the rest is
	// read and written with pread and pwrite. At most 1 TiB. Default
	// 268435456 (256 MiB;
	// Kyoto Cabinet's own default is 64 MiB).
	MapSize int64 `toml:"map_size"`
	// Buckets is the size of the hash table of pages in the file, at most
	// 2^30. Default 65536.
	Buckets int64 `toml:"buckets"`
}

// Defaults of Options.
const (
	DefaultTuneOptions = "sl"
	DefaultCompressor  = "lzo"
	DefaultPageSize    = 1024
	DefaultMapSize     = 256 << 20
	DefaultBuckets     = 64 << 10
)

// Resolve returns o with every zero field set to its default
// (engine.Resolver), or an error wrapping engine.ErrInvalidOptions that
// names the bad key.
func (o Options) Resolve(engine.Options) (any, error) {
	o.TuneOptions = cmp.Or(o.TuneOptions, DefaultTuneOptions)
	o.Compressor = cmp.Or(o.Compressor, DefaultCompressor)
	err := defaults.Fill("kyotocabinet",
		// Kyoto Cabinet allocates pages and the bucket array in the file
		// and maps map_size of it up front.
		defaults.In("page_size", &o.PageSize, DefaultPageSize, 1, 1<<20),
		defaults.In("map_size", &o.MapSize, DefaultMapSize, 1, 1<<40),
		defaults.In("buckets", &o.Buckets, DefaultBuckets, 1, 1<<30),
	)
	if err != nil {
		return o, err
	}
	if o.TuneOptions != "none" && strings.Trim(o.TuneOptions, "sl") != "" {
		return o, fmt.Errorf(`%w: kyotocabinet tune_options %q: use the letters s (TSMALL) and l (TLINEAR), or "none"`, engine.ErrInvalidOptions, o.TuneOptions)
	}
	switch o.Compressor {
	case "lzo", "zlib", "lzma":
	default:
		return o, fmt.Errorf(`%w: kyotocabinet compressor %q: use "lzo", "zlib" or "lzma"`, engine.ErrInvalidOptions, o.Compressor)
	}
	return o, nil
}

// tuning returns the parameters Kyoto Cabinet reads after the file name
// ("data.kct#opts=slc#zcomp=lzo#..."); compressor is "" for none.
func (o Options) tuning(shared engine.Options, compressor string) string {
	opts := strings.TrimPrefix(o.TuneOptions, "none")
	if compressor != "" {
		opts += "c"
	}
	p := fmt.Sprintf("#psiz=%d#msiz=%d#bnum=%d#pccap=%d", o.PageSize, o.MapSize, o.Buckets, shared.CacheSize)
	if opts != "" {
		p += "#opts=" + opts
	}
	if compressor != "" {
		p += "#zcomp=" + compressor
	}
	return p
}
