//! The timeline rows of a streamed build, packed into one buffer until all are in and
//! sorted: about the rows' own bytes each, instead of nine strings and their allocations
//! (100k claims' timeline held as `EventRow`s is ~60 MB).

use super::build::EventOrder;
use super::rows::EventRow;

/// Rows in the order they were added; `sorted` hands them back in `EventOrder` order.
#[derive(Default)]
pub(super) struct Packed {
    bytes: Vec<u8>,
    /// Where each row starts in `bytes`.
    starts: Vec<usize>,
}

/// One timeline row borrowed: read back from the buffer, or from an `EventRow`.
pub(super) struct TimelineRow<'a> {
    pub at: &'a str,
    pub subject: &'a str,
    pub kind: &'a str,
    pub claim_id: &'a str,
    pub agent: &'a str,
    pub session: &'a str,
    pub text: &'a str,
    pub related_id: Option<&'a str>,
}

impl<'a> From<&'a EventRow> for TimelineRow<'a> {
    fn from(e: &'a EventRow) -> Self {
        TimelineRow {
            at: &e.at,
            subject: &e.subject,
            kind: &e.kind,
            claim_id: &e.claim_id,
            agent: &e.agent,
            session: &e.session,
            text: &e.text,
            related_id: e.related_id.as_deref(),
        }
    }
}

impl Packed {
    pub fn push(&mut self, (at, pass, by, place): &EventOrder, e: &EventRow) {
        self.starts.push(self.bytes.len());
        self.str(at);
        self.bytes.push(*pass);
        self.str(by);
        self.bytes.extend_from_slice(&place.to_be_bytes());
        for s in [
            &e.at,
            &e.subject,
            &e.kind,
            &e.claim_id,
            &e.agent,
            &e.session,
            &e.text,
        ] {
            self.str(s);
        }
        match &e.related_id {
            Some(r) => {
                self.bytes.push(1);
                self.str(r);
            }
            None => self.bytes.push(0),
        }
    }

    fn str(&mut self, s: &str) {
        self.bytes
            .extend_from_slice(&(s.len() as u32).to_le_bytes());
        self.bytes.extend_from_slice(s.as_bytes());
    }

    /// The rows sorted by their order, ties in the order they were added (a stable sort,
    /// as `build_with`'s callers sort a collected timeline).
    pub fn sorted(&self) -> impl Iterator<Item = TimelineRow<'_>> {
        let mut order = self.starts.clone();
        order.sort_by(|&a, &b| self.key(a).cmp(&self.key(b)));
        order.into_iter().map(|s| self.row(s))
    }

    fn key(&self, start: usize) -> (&[u8], u8, &[u8], u32) {
        let mut r = Reader(&self.bytes[start..]);
        let at = r.bytes();
        let pass = r.take(1)[0];
        let by = r.bytes();
        let place = u32::from_be_bytes(r.take(4).try_into().unwrap_or_default());
        (at, pass, by, place)
    }

    fn row(&self, start: usize) -> TimelineRow<'_> {
        let mut r = Reader(&self.bytes[start..]);
        r.bytes();
        r.take(1);
        r.bytes();
        r.take(4);
        TimelineRow {
            at: r.str(),
            subject: r.str(),
            kind: r.str(),
            claim_id: r.str(),
            agent: r.str(),
            session: r.str(),
            text: r.str(),
            related_id: (r.take(1)[0] == 1).then(|| r.str()),
        }
    }
}

/// A cursor over bytes `Packed` wrote: every read is of what `push` put there.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n.min(self.0.len()));
        self.0 = rest;
        head
    }

    fn bytes(&mut self) -> &'a [u8] {
        let len = u32::from_le_bytes(self.take(4).try_into().unwrap_or_default());
        self.take(len as usize)
    }

    fn str(&mut self) -> &'a str {
        // Written from a `&str`: always UTF-8.
        std::str::from_utf8(self.bytes()).unwrap_or_default()
    }
}
