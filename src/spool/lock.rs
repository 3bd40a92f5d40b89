//! Bounded waits for a spool file's `flock`, and who is holding it when the wait runs
//! out. No caller ever waits on a spool lock without a deadline: a stopped `sync`, a
//! debugger or a hung filesystem holding it must not freeze an agent's turn.

use std::fmt;
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::Error;

/// Longest nap between two tries: short enough that a lock released mid-wait is taken
/// promptly, long enough that a 2 s wait is ~100 tries, not a busy loop.
const MAX_NAP: Duration = Duration::from_millis(20);

/// Take an exclusive lock on `file`, trying until `wait` has passed. `Ok(false)`: still
/// held by someone else at the deadline.
pub(crate) fn lock_within(file: &File, wait: Duration) -> std::io::Result<bool> {
    let start = Instant::now();
    let mut nap = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(std::fs::TryLockError::WouldBlock) => {}
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        let left = wait.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Ok(false);
        }
        std::thread::sleep(nap.min(left));
        nap = (nap * 2).min(MAX_NAP);
    }
}

/// The process holding a lock, as `/proc/locks` and `/proc/<pid>/cmdline` tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Holder {
    pub pid: u32,
    pub command: Option<String>,
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.command {
            Some(c) => write!(f, "pid {} (`{c}`)", self.pid),
            None => write!(f, "pid {}", self.pid),
        }
    }
}

/// Who holds a lock on `file`'s inode, when the platform says (Linux `/proc/locks`).
pub(crate) fn holder(file: &File) -> Option<Holder> {
    let meta = file.metadata().ok()?;
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    let pid = holder_pid(&locks, meta.dev(), meta.ino(), std::process::id())?;
    let command = std::fs::read(format!("/proc/{pid}/cmdline"))
        .ok()
        .map(|b| {
            let words: Vec<String> = b
                .split(|c| *c == 0)
                .filter(|w| !w.is_empty())
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect();
            crate::sanitize::clean(&words.join(" "), 200)
        })
        .filter(|c| !c.is_empty());
    Some(Holder { pid, command })
}

/// The pid of a granted lock on (`dev`, `ino`) in `/proc/locks` text, other than `me`.
/// Lines look like `1: FLOCK  ADVISORY  WRITE 8421 fe:00:10011479 0 EOF`; waiters carry
/// `->` and are skipped. The device is `major:minor` in hex; an inode match on another
/// device (overlay filesystems report the upper one) is a fallback.
fn holder_pid(locks: &str, dev: u64, ino: u64, me: u32) -> Option<u32> {
    let want_dev = format!("{:02x}:{:02x}", major(dev), minor(dev));
    let mut fallback = None;
    for line in locks.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.get(1) == Some(&"->") || fields.len() < 6 {
            continue;
        }
        let (Ok(pid), Some((dev_part, ino_part))) =
            (fields[4].parse::<u32>(), fields[5].rsplit_once(':'))
        else {
            continue;
        };
        if pid == me || ino_part.parse::<u64>().ok() != Some(ino) {
            continue;
        }
        if dev_part == want_dev {
            return Some(pid);
        }
        fallback.get_or_insert(pid);
    }
    fallback
}

/// glibc's `dev_t` encoding (the kernel reports `MAJOR:MINOR` of the same number).
fn major(dev: u64) -> u64 {
    ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff)
}
fn minor(dev: u64) -> u64 {
    (dev & 0xff) | ((dev >> 12) & !0xff)
}

/// The error a CLI or MCP write gives when the lock stayed taken past its deadline.
pub(crate) fn busy(path: &Path, file: &File, waited: Duration) -> Error {
    let who = holder(file).map_or_else(
        || "another process (its pid is not visible here)".to_string(),
        |h| h.to_string(),
    );
    Error::refused(
        "spool_locked",
        format!(
            "`{}` is locked by {who}; gave up after {} ms and wrote nothing",
            path.display(),
            waited.as_millis()
        ),
    )
    .hint(
        "if that process is stuck, stop it and retry; `ctxlake spool check` shows what is \
         queued (`[limits] lock_wait_ms` sets how long writes wait)",
    )
}

/// Open-then-lock errors other than a timeout.
pub(crate) fn lock_failed(path: &Path, e: std::io::Error) -> Error {
    Error::io("cannot lock spool", path, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCKS: &str = "\
1: FLOCK  ADVISORY  WRITE 8433 fe:00:5376648 0 EOF
2: FLOCK  ADVISORY  WRITE 8421 fe:00:10011479 0 EOF
2: -> FLOCK  ADVISORY  WRITE 9999 fe:00:10011479 0 EOF
3: POSIX  ADVISORY  READ 77 00:2e:42 0 EOF
";

    #[test]
    fn the_granted_holder_of_the_inode_is_found() {
        let dev = 0xfe00;
        assert_eq!(holder_pid(LOCKS, dev, 10011479, 1), Some(8421));
        // Our own lock is not "the holder"; a waiter (`->`) never is.
        assert_eq!(holder_pid(LOCKS, dev, 10011479, 8421), None);
        assert_eq!(holder_pid(LOCKS, dev, 123, 1), None);
        // Same inode on another device: the fallback.
        assert_eq!(holder_pid(LOCKS, 0x0801, 42, 1), Some(77));
        assert_eq!((major(0x0801), minor(0x0801)), (8, 1));
    }

    #[test]
    fn a_held_lock_times_out_and_names_this_process() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.ndjson");
        let held = File::create(&p).unwrap();
        held.lock().unwrap();
        let other = File::open(&p).unwrap();
        let start = Instant::now();
        assert!(!lock_within(&other, Duration::from_millis(40)).unwrap());
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(40) && took < Duration::from_secs(2));
        held.unlock().unwrap();
        assert!(lock_within(&other, Duration::from_millis(40)).unwrap());
    }
}
