package harness

// Header is what every workload's result says first: which engine ran,
// which version, which run of it, with which options. A workload's Run
// leaves it empty; the caller, which knows how it opened the engine,
// fills it.
type Header struct {
	// Engine is the registered engine name.
	Engine string `json:"engine"`
	// Version is the engine library's version (engine.Version).
	Version string `json:"version,omitempty"`
	// Repeat numbers the run among the engine's runs (-count), from 1; 0
	// when it was not numbered.
	Repeat int `json:"repeat,omitempty"`
	// Options are the options the engine ran with, as a config file names
	// them, every default filled in (engine.Effective): the shared keys,
	// and the engine's own in a table under its name.
	Options map[string]any `json:"options,omitempty"`
	// Description says which instance of the engine ran, where its
	// backend tells (engine.Describer): a cluster's etcd version, whether
	// it was local or given, its members and their addresses. The
	// environment cannot hold it: it is known only once the engine is open.
	Description string `json:"engine_description,omitempty"`
}
