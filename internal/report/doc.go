// Package report renders what the benchmarks of workload and
// workload/micro measured, the same way for both:
//
//   - Table and Page: side-by-side tables with one column per engine and
//     the best figure of each row marked, as aligned text for a terminal
//     or as GitHub Markdown;
//   - Duration, Bytes, Rate and Sig3, the human formats of those tables,
//     and the cells built on them;
//   - the cells and CSV figures of internal/measure's I/O and latency;
//   - CSV and WriteJSON, the forms for other tools.
//
// What goes in the rows stays with each benchmark. Package reporttest
// checks a benchmark's report against its golden files.
package report
