// Package results is the report plumbing every workload shares, so that
// each keeps only what is its own: the rows of its tables and its
// charts. A workload's Report is a Report of its result type; a Schema
// says once how to read that type (its header and error, whether it ran,
// its parts: steps, benchmarks, operation kinds), and New gathers the
// results by engine (an engine run several times, -count, has one
// result per run) into a Set, from which package report's forms are
// made:
//
//   - Engines, Config, RepeatNote and Settings: the columns, the
//     workload that ran, and what every report says of them alike;
//   - Cells, MetricCells and MetricRows: a figure of each engine for a
//     table row, the median and spread of its runs (report.Merge), judged
//     against what failed (report.Judge); Metric is a row's figure, and
//     MemoryMetrics and LatencyMetrics the rows every report shows alike;
//   - Chart, PercentileChart and Stacked: a chart with a series per
//     engine, each point the median and spread of its runs (Value is a
//     run's figure at a point); InCell and CellLabels for figures over
//     time;
//   - Page: the page the text, Markdown and HTML forms render
//     (report.Write);
//   - WriteCSV, WriteJSON with Summaries, and Samples: the long-form CSV,
//     the JSON with a summary of repeated runs and the figures compare
//     weighs, every figure named by its JSON path (report.Flatten,
//     RunFigures).
package results
