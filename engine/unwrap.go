package engine

// Unwrap returns the backend that an engine from Open wraps, or nil if e
// did not come from Open, as errors.Unwrap does for errors. It reaches
// what a backend offers beyond the contract, which the wrapper does not
// forward: Describer, Processes, Sizer, or methods of the backend's own
// type. Calls on the backend bypass Open's checks (use after Close, key
// limits), so use it for such queries, and the engine for the rest.
func Unwrap(e Engine) Backend {
	if u, ok := e.(interface{ unwrap() Backend }); ok {
		return u.unwrap()
	}
	return nil
}

// unwrap sees through the backend inject.Broken put in place.
func (h *handle) unwrap() Backend {
	if f, ok := h.be.(*failing); ok {
		return f.Backend
	}
	return h.be
}

// Describer is implemented by a backend that can say which instance it
// is, beyond its library's version: a cluster's members and their
// version, for a run's record of what ran.
type Describer interface {
	Describe() string
}

// Versioner is implemented by a backend whose version depends on how it
// was opened, not only on the library linked in: etcd's members run the
// binary its options name. Version is the version of the instance that
// runs, which a run's record takes over the driver's (Version).
type Versioner interface {
	Version() string
}

// Processes is implemented by a backend that does its work in other
// processes, such as the members of a local etcd cluster: a benchmark adds
// their CPU time, I/O and memory to its own process's, which alone would
// leave the engine's work out.
type Processes interface {
	// PIDs returns the processes' ids now; a process may have exited
	// since.
	PIDs() []int
}

// Sizer is implemented by a backend that reports the size of its data
// itself, where its directory does not tell: a cluster's members report
// their backends' sizes, which may live on other machines.
type Sizer interface {
	// Sizes returns the bytes holding data (inUse) and the bytes the
	// files take (onDisk), summed over every copy the engine keeps.
	Sizes() (inUse, onDisk int64, err error)
}

// BackendAs returns e's backend (Unwrap), or e itself if it did not come
// from Open, as a T if it implements T.
func BackendAs[T any](e Engine) (T, bool) {
	var x any = e
	if be := Unwrap(e); be != nil {
		x = be
	}
	t, ok := x.(T)
	return t, ok
}
