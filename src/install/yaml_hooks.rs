//! Hermes `hooks:` editing: append ctxlake's item to an event's block sequence next to the
//! user's own items, and remove only items whose `command:` is ours.

use serde_json::Value;

use super::{Block, Line, append_top, check, drop_if_empty, find, lines, scalar, unit};
use crate::install::jsonc::{ParseError, Seg};

/// Items of the sequence under the event at `e`: (first line, one past last content line).
fn items(ls: &[Line], e: &Block) -> Vec<(usize, usize)> {
    let body = e.at + 1..e.body_end;
    let Some(dash) = body
        .clone()
        .find(|&n| ls[n].content() && ls[n].body().starts_with('-'))
    else {
        return Vec::new();
    };
    let indent = ls[dash].indent;
    let mut out: Vec<(usize, usize)> = Vec::new();
    for n in body {
        let l = &ls[n];
        if !l.content() {
            continue;
        }
        if l.indent == indent && l.body().starts_with('-') {
            out.push((n, n + 1));
        } else if let Some(last) = out.last_mut() {
            last.1 = n + 1;
        }
    }
    out
}

fn is_our_item(ls: &[Line], item: (usize, usize), is_ours: &dyn Fn(&str) -> bool) -> bool {
    ls[item.0..item.1].iter().any(|l| {
        let b = l.body().trim_start_matches('-').trim_start();
        b.strip_prefix("command:")
            .is_some_and(|v| is_ours(v.trim().trim_matches(['"', '\''])))
    })
}

fn render_item(item: &Value, dash: usize) -> String {
    let pad = " ".repeat(dash);
    let mut out = String::new();
    for (i, (k, v)) in item.as_object().into_iter().flatten().enumerate() {
        let lead = if i == 0 {
            format!("{pad}- ")
        } else {
            format!("{pad}  ")
        };
        out.push_str(&format!("{lead}{k}: {}\n", scalar(v)));
    }
    out
}

/// Append `item` under `hooks.event` unless an identical item of ours is there; our older
/// items for the event are replaced. Returns the new text and the keys it created.
pub fn add_hook(
    text: &str,
    event: &str,
    item: &Value,
    is_ours: &dyn Fn(&str) -> bool,
) -> Result<(String, Vec<Vec<Seg>>), ParseError> {
    check(text)?;
    let ls = lines(text);
    let u = unit(&ls);
    let key = |k: &[&str]| {
        k.iter()
            .map(|s| Seg::Key((*s).to_string()))
            .collect::<Vec<_>>()
    };
    let Some(h) = find(&ls, 0, ls.len(), "hooks")? else {
        let block = format!(
            "hooks:\n{}{event}:\n{}",
            " ".repeat(u),
            render_item(item, 2 * u)
        );
        return Ok((
            append_top(text, &block),
            vec![key(&["hooks"]), key(&["hooks", event])],
        ));
    };
    let Some(e) = find(&ls, h.at + 1, h.body_end, event)? else {
        let ci = super::child_indent(&ls, &h, u);
        let at = ls[h.body_end - 1].end();
        let mut out = text.to_string();
        let sep = if text[..at].ends_with('\n') { "" } else { "\n" };
        out.insert_str(
            at,
            &format!(
                "{sep}{}{event}:\n{}",
                " ".repeat(ci),
                render_item(item, ci + u)
            ),
        );
        return Ok((out, vec![key(&["hooks", event])]));
    };
    let its = items(&ls, &e);
    let dash = its.first().map_or(e.indent + u, |i| ls[i.0].indent);
    let want = render_item(item, dash);
    let ours: Vec<_> = its
        .iter()
        .copied()
        .filter(|i| is_our_item(&ls, *i, is_ours))
        .collect();
    if ours.len() == 1 && text[ls[ours[0].0].start..ls[ours[0].1 - 1].end()] == want {
        return Ok((text.to_string(), Vec::new()));
    }
    let mut out = text.to_string();
    let at = ls[e.body_end - 1].end();
    let sep = if text[..at].ends_with('\n') { "" } else { "\n" };
    out.insert_str(at, &format!("{sep}{want}"));
    for i in ours.iter().rev() {
        out.replace_range(ls[i.0].start..ls[i.1 - 1].end(), "");
    }
    Ok((out, Vec::new()))
}

/// Remove every item of ours under `hooks:`, then the keys we created if they are now empty.
pub fn remove_hooks(
    text: &str,
    is_ours: &dyn Fn(&str) -> bool,
    created: &[Vec<Seg>],
) -> Result<String, ParseError> {
    let ls = lines(text);
    let Some(h) = find(&ls, 0, ls.len(), "hooks")? else {
        return Ok(text.to_string());
    };
    let ci = super::child_indent(&ls, &h, unit(&ls));
    let mut doomed = Vec::new();
    // Events whose list held only our items go with them (and `hooks:` if that was all),
    // recorded or not.
    let mut emptied: Vec<Vec<Seg>> = Vec::new();
    let mut events = 0;
    for n in h.at + 1..h.body_end {
        if ls[n].content() && ls[n].indent == ci && ls[n].body().ends_with(':') {
            events += 1;
            let e = Block {
                at: n,
                indent: ci,
                body_end: super::body_end(&ls, n, h.body_end),
            };
            let all = items(&ls, &e);
            let mine: Vec<_> = all
                .iter()
                .copied()
                .filter(|i| is_our_item(&ls, *i, is_ours))
                .collect();
            if !mine.is_empty() && mine.len() == all.len() {
                let name = ls[n].body().trim_end_matches(':').to_string();
                emptied.push(vec![Seg::Key("hooks".into()), Seg::Key(name)]);
            }
            doomed.extend(mine);
        }
    }
    if !emptied.is_empty() && emptied.len() == events {
        emptied.push(vec![Seg::Key("hooks".into())]);
    }
    let mut out = text.to_string();
    for i in doomed.iter().rev() {
        out.replace_range(ls[i.0].start..ls[i.1 - 1].end(), "");
    }
    let mut created: Vec<&Vec<Seg>> = created
        .iter()
        .chain(&emptied)
        .filter(|p| p.first() == Some(&Seg::Key("hooks".into())))
        .collect();
    created.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for p in created {
        let names: Vec<&str> = p
            .iter()
            .filter_map(|s| {
                if let Seg::Key(k) = s {
                    Some(k.as_str())
                } else {
                    None
                }
            })
            .collect();
        out = drop_if_empty(&out, &names)?;
    }
    Ok(out)
}
