//! A small unified line diff for `--dry-run`. Our edits touch a few lines of files that can be
//! megabytes long, so the common head and tail are trimmed before an LCS over the middle.

const CONTEXT: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Keep,
    Del,
    Add,
}

/// `--- a` / `+++ b` / `@@ … @@` hunks; empty when the texts are equal.
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = script(&a, &b);
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    let changed: Vec<usize> = (0..ops.len()).filter(|&i| ops[i].0 != Op::Keep).collect();
    let mut i = 0;
    while i < changed.len() {
        let start = changed[i].saturating_sub(CONTEXT);
        let mut end = changed[i];
        while i < changed.len() && changed[i] <= end + 2 * CONTEXT {
            end = changed[i];
            i += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        out.push_str(&hunk(&ops[start..end]));
    }
    out
}

type Line<'a> = (Op, &'a str, usize, usize);

fn hunk(ops: &[Line]) -> String {
    let (a0, b0) = (ops[0].2, ops[0].3);
    let na = ops.iter().filter(|o| o.0 != Op::Add).count();
    let nb = ops.iter().filter(|o| o.0 != Op::Del).count();
    // An empty side starts at line 0, as `diff -u` writes it.
    let from = |start: usize, n: usize| if n == 0 { start } else { start + 1 };
    let mut s = format!("@@ -{},{na} +{},{nb} @@\n", from(a0, na), from(b0, nb));
    for (op, line, _, _) in ops {
        s.push(match op {
            Op::Keep => ' ',
            Op::Del => '-',
            Op::Add => '+',
        });
        s.push_str(line);
        if !line.ends_with('\n') {
            s.push_str("\n\\ No newline at end of file\n");
        }
    }
    s
}

/// The edit script with each line's position in `a` and `b`.
fn script<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<Line<'a>> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    // LCS lengths from the end: lcs[i][j] for ma[i..], mb[j..].
    let w = mb.len() + 1;
    let mut lcs = vec![0u32; (ma.len() + 1) * w];
    for i in (0..ma.len()).rev() {
        for j in (0..mb.len()).rev() {
            lcs[i * w + j] = if ma[i] == mb[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut ops: Vec<Line> = (0..head).map(|k| (Op::Keep, a[k], k, k)).collect();
    let (mut i, mut j) = (0, 0);
    while i < ma.len() || j < mb.len() {
        if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
            ops.push((Op::Keep, ma[i], head + i, head + j));
            (i, j) = (i + 1, j + 1);
        } else if j < mb.len() && (i == ma.len() || lcs[i * w + j + 1] > lcs[(i + 1) * w + j]) {
            ops.push((Op::Add, mb[j], head + i, head + j));
            j += 1;
        } else {
            ops.push((Op::Del, ma[i], head + i, head + j));
            i += 1;
        }
    }
    let (ea, eb) = (a.len() - tail, b.len() - tail);
    ops.extend((0..tail).map(|k| (Op::Keep, a[ea + k], ea + k, eb + k)));
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_with_context_and_missing_newline() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n}";
        let new = "a\nb\nc\nd\ne\nf\ng\nh,\nX\n}";
        let d = unified(old, new, "f", "f");
        assert_eq!(
            d,
            "--- f\n+++ f\n@@ -5,5 +5,6 @@\n e\n f\n g\n-h\n+h,\n+X\n }\n\\ No newline at end of file\n"
        );
        assert_eq!(unified(old, old, "f", "f"), "");
        assert!(unified("", "x\n", "/dev/null", "f").contains("@@ -0,0 +1,1 @@\n+x\n"));
    }
}
