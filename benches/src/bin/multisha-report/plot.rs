//! One SVG chart per algorithm: one-shot throughput against message size, one line per
//! contender, log-scaled size axis.

use crate::results::{AlgoReport, Report};
use plotters::prelude::*;
use std::path::Path;

/// Ten clearly distinct colours (Tableau 10); plotters' palettes repeat near-identical hues
/// within the first ten.
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The one-shot throughput chart of `algo`.
pub(crate) fn draw(report: &Report, algo: &AlgoReport, path: &Path) -> Result<(), String> {
    let series: Vec<(String, Vec<(f64, f64)>)> = algo
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let points = algo
                .sweep
                .iter()
                .map(|(size, stats)| (*size as f64, report.mbps(*size, stats[i].median)))
                .collect();
            (e.name.clone(), points)
        })
        .collect();
    let title = format!(
        "{} one-shot throughput vs message size ({})",
        algo.algorithm, report.cpu
    );
    draw_series(&title, "message size (bytes)", &series, path)
}

/// A chart of MB/s against a size (log axis), one line per named series.
pub(crate) fn draw_series(
    title: &str,
    x_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
    path: &Path,
) -> Result<(), String> {
    let context = |e: &dyn std::fmt::Display| format!("drawing {}: {e}", path.display());
    let xs = series.iter().flat_map(|s| s.1.iter().map(|p| p.0));
    let (Some(first), Some(last)) = (xs.clone().reduce(f64::min), xs.reduce(f64::max)) else {
        return Ok(());
    };
    let top = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .fold(1.0, f64::max)
        * 1.1;
    // A single size still needs a non-empty x range.
    let (low, high) = (first / 1.5, last * 1.5);

    let root = SVGBackend::new(path, (1000, 620)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| context(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((low..high).log_scale(), 0.0..top)
        .map_err(|e| context(&e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc("MB/s")
        // The log axis ticks at powers of ten, so decimal prefixes read best.
        .x_label_formatter(&|x| match *x {
            x if x >= 1e6 => format!("{}M", x / 1e6),
            x if x >= 1e3 => format!("{}k", x / 1e3),
            x => format!("{x}"),
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| context(&e))?;
    for (i, (name, points)) in series.iter().enumerate() {
        let color = COLOURS[i % COLOURS.len()].to_rgba();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(|e| context(&e))?
            .label(name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| context(&e))?;
    root.present().map_err(|e| context(&e))
}
