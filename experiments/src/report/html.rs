//! `report.html`: the report as one self-contained page, read offline: the
//! Markdown rendered to HTML (CommonMark with tables) and every plot the
//! Markdown links to written inline as SVG, with a style sheet and no
//! script, so that it opens from a file, by mail, or on a machine without
//! network.

use std::path::Path;

use anyhow::{Context, Result};
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd, html};

/// The page's style: readable tables, wide ones scroll.
const STYLE: &str = "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
table{border-collapse:collapse;display:block;overflow-x:auto;margin:1em 0;font-size:0.9em}\
th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:left;vertical-align:top}\
th{background:#f2f2f2}code{font-size:0.92em;background:#f6f6f6;padding:0 0.2em}\
figure.plot{margin:1em 0}figure.plot svg{max-width:100%;height:auto}";

/// The page of Markdown `md`, whose image links are relative to `base`:
/// each linked SVG is read and inlined in a `<figure class="plot">`.
///
/// # Errors
/// A linked plot that cannot be read.
pub fn page(title: &str, md: &str, base: &Path) -> Result<String> {
    let mut events: Vec<Event> = Vec::new();
    let mut in_image = false;
    for event in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Image { dest_url, .. }) => {
                let path = base.join(dest_url.as_ref());
                let svg = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read the plot {}", path.display()))?;
                // Drop any XML declaration: inline SVG is an element.
                let svg = match svg.find("<svg") {
                    Some(i) => &svg[i..],
                    None => svg.as_str(),
                };
                events.push(Event::Html(
                    format!("<figure class=\"plot\">{svg}</figure>").into(),
                ));
                in_image = true;
            }
            Event::End(TagEnd::Image) => in_image = false,
            // The alt text of an inlined image.
            _ if in_image => {}
            e => events.push(e),
        }
    }
    let mut body = String::new();
    html::push_html(&mut body, events.into_iter());
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    ))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
