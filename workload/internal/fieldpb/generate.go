// Package fieldpb holds the Go code protoc generates from
// workload/fieldvalue.proto. The benchmark encodes values by hand with
// protowire; this generated message exists so tests can prove that the hand
// encoding and the real protobuf encoding agree. Regenerate with
// `go generate ./workload/...` (needs protoc on PATH).
package fieldpb

//go:generate go build -o protoc-gen-go.tmp google.golang.org/protobuf/cmd/protoc-gen-go
//go:generate protoc -I ../.. --plugin=protoc-gen-go=protoc-gen-go.tmp --go_out=. --go_opt=paths=source_relative ../../fieldvalue.proto
//go:generate rm -f protoc-gen-go.tmp
