package points

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/tsbench/storage/workload/internal/fieldpb"
)

func sampleValues() []int64 {
	vs := []int64{0, 1, -1, 127, 128, -128, math.MaxInt64, math.MinInt64, 1 << 62, -(1 << 62)}
	for k := range 63 { // both sides of every varint length
		vs = append(vs, 1<<k, 1<<k-1, -(1 << k))
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		vs = append(vs, int64(r.Uint64()), r.Int64N(1<<20))
	}
	g := Generator{Series: 1, Seed: 99}
	for seq := range uint64(100) {
		vs = append(vs, g.Value(seq))
	}
	return vs
}

// TestValueWireCompatible proves both directions against the message
// protoc generated from fieldvalue.proto: what AppendValue writes,
// proto.Unmarshal reads as a FieldValue holding v; what proto.Marshal
// writes, ParseValue reads; and the two encodings are the same bytes.
func TestValueWireCompatible(t *testing.T) {
	for _, v := range sampleValues() {
		ours := AppendValue(nil, v)
		if len(ours) != ValueSize(v) {
			t.Fatalf("ValueSize(%d) = %d, encoding has %d bytes", v, ValueSize(v), len(ours))
		}
		var m fieldpb.FieldValue
		if err := proto.Unmarshal(ours, &m); err != nil {
			t.Fatalf("proto.Unmarshal(AppendValue(%d)): %v", v, err)
		}
		if m.Int64Value == nil || m.GetInt64Value() != v || m.StringValue != nil || m.DoubleValue != nil || m.BoolValue != nil {
			t.Fatalf("AppendValue(%d) decodes as %v", v, &m)
		}
		if len(m.ProtoReflect().GetUnknown()) != 0 {
			t.Fatalf("AppendValue(%d) has unknown fields", v)
		}
		theirs, err := proto.MarshalOptions{Deterministic: true}.Marshal(&fieldpb.FieldValue{Int64Value: proto.Int64(v)})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ours, theirs) {
			t.Fatalf("value %d: AppendValue %x, proto.Marshal %x", v, ours, theirs)
		}
		got, err := ParseValue(theirs)
		if err != nil || got != v {
			t.Fatalf("ParseValue(proto.Marshal(%d)) = %d, %v", v, got, err)
		}
	}
}

// TestParseValueFollowsProtobuf feeds ParseValue messages with other
// fields set, and repeated fields, as a protobuf decoder accepts them.
func TestParseValueFollowsProtobuf(t *testing.T) {
	full, err := proto.Marshal(&fieldpb.FieldValue{
		StringValue: proto.String("cpu"),
		DoubleValue: proto.Float64(1.5),
		BoolValue:   proto.Bool(true),
		Int64Value:  proto.Int64(-42),
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ParseValue(full); err != nil || v != -42 {
		t.Errorf("all fields set: %d, %v", v, err)
	}
	// The last int64_value wins, as in proto.Unmarshal.
	twice := AppendValue(AppendValue(nil, 1), 2)
	var m fieldpb.FieldValue
	if err := proto.Unmarshal(twice, &m); err != nil || m.GetInt64Value() != 2 {
		t.Fatalf("proto.Unmarshal: %v, %v", &m, err)
	}
	if v, err := ParseValue(twice); err != nil || v != 2 {
		t.Errorf("repeated int64_value: %d, %v", v, err)
	}
	// Unknown fields are skipped.
	unknown := protowire.AppendTag(nil, 99, protowire.BytesType)
	unknown = protowire.AppendBytes(unknown, []byte("future"))
	if v, err := ParseValue(AppendValue(unknown, 7)); err != nil || v != 7 {
		t.Errorf("with an unknown field: %d, %v", v, err)
	}
}

func TestParseValueRejects(t *testing.T) {
	onlyString, _ := proto.Marshal(&fieldpb.FieldValue{StringValue: proto.String("x")})
	wrongType := protowire.AppendTag(nil, 5, protowire.Fixed64Type)
	wrongType = protowire.AppendFixed64(wrongType, 1)
	for name, b := range map[string][]byte{
		"empty":            nil,
		"no int64_value":   onlyString,
		"truncated varint": AppendValue(nil, -1)[:5],
		"truncated tag":    {0x80},
		"wrong wire type":  wrongType,
		"bad field number": {0x00, 0x01},
	} {
		if v, err := ParseValue(b); !errors.Is(err, ErrBadValue) {
			t.Errorf("%s: ParseValue(%x) = %d, %v; want ErrBadValue", name, b, v, err)
		}
	}
}

func TestValueNoAlloc(t *testing.T) {
	buf := make([]byte, 0, 16)
	if n := testing.AllocsPerRun(1000, func() { buf = AppendValue(buf[:0], math.MinInt64) }); n != 0 {
		t.Errorf("AppendValue allocates %v times into a buffer with room", n)
	}
	if n := testing.AllocsPerRun(1000, func() { ParseValue(buf) }); n != 0 {
		t.Errorf("ParseValue allocates %v times", n)
	}
}
