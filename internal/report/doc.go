// Package report renders what the benchmarks of workload and
// workload/micro measured, the same way for both:
//
//   - Table and Page: side-by-side tables with one column per engine and
//     the best figure of each row marked, as aligned text for a terminal
//     or as GitHub Markdown;
//   - Duration, Bytes, Rate and Sig3, the human formats of those tables,
//     and the cells built on them;
//   - the cells of internal/measure's I/O and latency;
//   - Merge and Stats: a figure over repeated runs, its median and spread;
//   - Chart and Page.HTML: a self-contained page with inline SVG charts,
//     drawn by a small SVG writer of this package;
//   - Flatten and Figure: every field of a result named by its JSON path,
//     for CSV, summaries and Compare;
//   - Compare and UTest: two reports side by side, with benchstat's test;
//   - History: the releases of engines side by side in version order,
//     changes between neighbours judged by the same test;
//   - CSV, WriteJSON and GoBench, the forms for other tools.
//
// What goes in the rows stays with each benchmark. Package reporttest
// checks a benchmark's report against its golden files.
package report
