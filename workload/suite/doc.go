// Package suite is the registry of the workloads benchmark-storage runs,
// in the style of database/sql's drivers: each workload package (the
// time-series suite in workload/timeseries, workload/micro, workload/mixed,
// workload/steady, workload/crash) registers one Workload from its init,
// and a program picks one by the name -workload gives (Lookup), having
// imported workload/all for every one of them.
//
// A workload owns everything of its own: its flags, which it defines on
// the flag set of the command run for it (Suite.NewConfig) into its
// settings, a typed, JSON-tagged struct; the checks of those settings,
// done once in the parent (Config.Configure); its run on one engine in a
// child process; and its report (a report.Renderer), which
// benchmark-storage compare reads too if the workload is a Comparer. The
// flags several workloads share (-points, -series, -batch, -seed,
// -interval, -dataset) are the command's, defined for the workloads that
// name them (Info.Shared) and handed to their Configure as Common.
//
// A setting takes one path: a flag sets a workload's settings or
// Common; Configure completes and checks them in the parent; the job the
// parent hands each child carries them as JSON, the settings under the
// workload's name (Config.MarshalJSON, Suite.Decode), beside the engine's
// options that engine.Resolve resolved; the child decodes them and runs
// the workload (Config.Run) on the engine opened with those options. A
// child parses no flag and reads no file.
//
// Adding a workload is a package that registers itself and a line in
// workload/all; no other workload, nor the command, changes.
package suite
