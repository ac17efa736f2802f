package harness

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Verification counts what reads returned against what the workload's
// model expected them to: the one record every suite keeps of its checks,
// each counting by its own model (a time-series query expects every point
// of the series still live; a mixed or steady read, what writers had
// acknowledged when it began; a micro read, the entries loaded). Its JSON
// is {expected, read, missing, unexpected, wrong, expired, checksum,
// first_problem}; expected and expired are left out where the workload
// does not count them (zero).
type Verification struct {
	// Expected is how many entries the reads should have returned, where
	// the model knows it in advance (time-series queries, micro reads);
	// 0 where it does not.
	Expected int64 `json:"expected,omitempty"`
	// Read is how many entries the engine returned and the check read.
	Read int64 `json:"read"`
	// Missing counts expected entries the engine did not return.
	Missing int64 `json:"missing"`
	// Unexpected counts entries that should not be there: deleted or
	// never written, of another series or range, returned twice, out of
	// order, or malformed keys.
	Unexpected int64 `json:"unexpected"`
	// Wrong counts entries whose value is not the one written (results
	// before schema 2 called it wrong_values in the time-series and mixed
	// workloads; they read the same).
	Wrong int64 `json:"wrong"`
	// Expired counts entries read that retention had deleted before the
	// read began (the steady-state workload).
	Expired int64 `json:"expired,omitempty"`
	// Checksum is the CRC32 or XXH64 a hashing scan computed, in hex
	// (micro's readCrc and readXxh64).
	Checksum string `json:"checksum,omitempty"`
	// First describes the first problem found.
	First string `json:"first_problem,omitempty"`
}

// Problems is every entry counted against the model.
func (v *Verification) Problems() int64 {
	return v.Missing + v.Unexpected + v.Wrong + v.Expired
}

// OK reports whether the reads returned what the model expected and
// nothing else: no problem counted or described, and as many entries as
// expected where the model knows how many.
func (v *Verification) OK() bool {
	return v.Problems() == 0 && v.First == "" && (v.Expected == 0 || v.Read == v.Expected)
}

// Add adds o's counts to v, keeping v's first problem if it has one.
func (v *Verification) Add(o *Verification) {
	v.Expected += o.Expected
	v.Read += o.Read
	v.Missing += o.Missing
	v.Unexpected += o.Unexpected
	v.Wrong += o.Wrong
	v.Expired += o.Expired
	if v.First == "" {
		v.First = o.First
	}
}

// Note records the first problem's description; later ones are only
// counted, so a run full of errors stays fast. Its arguments are boxed
// whether or not it is the first, so a caller on a path every read takes
// checks Noted first.
func (v *Verification) Note(format string, args ...any) {
	if v.First == "" {
		v.First = fmt.Sprintf(format, args...)
	}
}

// Noted says whether the first problem is recorded already.
func (v *Verification) Noted() bool { return v.First != "" }

// Summary says in one line what the reads found, counting unit ("points",
// "entries"): what the workload's error quotes.
func (v *Verification) Summary(unit string) string {
	var b strings.Builder
	if v.Expected > 0 {
		fmt.Fprintf(&b, "read %d of %d expected %s", v.Read, v.Expected, unit)
	} else {
		fmt.Fprintf(&b, "%d %s read", v.Read, unit)
	}
	fmt.Fprintf(&b, ": %d missing", v.Missing)
	if v.Unexpected > 0 {
		fmt.Fprintf(&b, ", %d unexpected", v.Unexpected)
	}
	fmt.Fprintf(&b, ", %d wrong", v.Wrong)
	if v.Expired > 0 {
		fmt.Fprintf(&b, ", %d expired but read", v.Expired)
	}
	if v.First != "" {
		fmt.Fprintf(&b, "; first: %s", v.First)
	}
	return b.String()
}

// verificationFields are a Verification's fields without its methods.
type verificationFields Verification

// UnmarshalJSON reads a verification, also as results before schema 2
// wrote it (wrong_values).
func (v *Verification) UnmarshalJSON(b []byte) error {
	var old struct {
		verificationFields
		WrongValues *int64 `json:"wrong_values"`
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return err
	}
	*v = Verification(old.verificationFields)
	if old.WrongValues != nil {
		v.Wrong = *old.WrongValues
	}
	return nil
}
