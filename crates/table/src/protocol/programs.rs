//! Bot programs as process groups.
//!
//! Every program runs as the leader of a process group of its own, so that stopping it
//! kills the whole group: whatever the program started goes too, even when the program
//! itself has already exited. While a group may exist it is listed in a fixed table, so
//! that a signal telling this process to stop (see [`stop_programs_on_signals`]) can kill
//! every group before the process ends.
//!
//! A group is only killed while its leader is our child and not yet reaped (on Linux,
//! whether it exited is checked without reaping it): until then its pid, which is the
//! group's id, cannot be reused, so the group signalled is the one the program leads.
//! Before killing, Linux's `/proc` is also asked whether the program leads its group, and
//! our own group is never signalled.

use std::io;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};

/// Most programs that may run at once (the table of groups is fixed-size, so that the
/// signal handler needs neither locks nor allocation).
pub const MAX_PROGRAMS: usize = 1024;

/// A running program, leader of its own process group.
pub(crate) struct Program {
    child: Child,
    /// The program's entry in the table of groups; `None` once the group may not be ours
    /// any more (the leader was reaped) or where there are no groups.
    slot: Option<usize>,
}

impl Program {
    /// Starts `cmd` as the leader of a new process group, and lists the group.
    pub(crate) fn spawn(cmd: &mut Command) -> io::Result<Program> {
        #[cfg(unix)]
        {
            unix::spawn(cmd)
        }
        #[cfg(not(unix))]
        {
            cmd.spawn().map(|child| Program { child, slot: None })
        }
    }

    /// Takes the program's stdin, stdout and stderr (piped when it was spawned).
    pub(crate) fn pipes(&mut self) -> Option<(ChildStdin, ChildStdout, ChildStderr)> {
        Some((
            self.child.stdin.take()?,
            self.child.stdout.take()?,
            self.child.stderr.take()?,
        ))
    }

    /// How the program ended, or `None` while it runs. On Linux the program is not reaped,
    /// so its group can still be killed safely.
    pub(crate) fn exit_status(&mut self) -> Option<ExitStatus> {
        #[cfg(target_os = "linux")]
        {
            unix::peek_exit(self.child.id())
        }
        #[cfg(not(target_os = "linux"))]
        {
            // Elsewhere this reaps the program: its group id may be reused from now on.
            let status = self.child.try_wait().ok().flatten();
            if status.is_some() {
                self.unlist();
            }
            status
        }
    }

    /// Kills the program's whole process group (the program itself and whatever it
    /// started), then reaps the program.
    pub(crate) fn stop(self) {
        drop(self);
    }

    /// Takes the group off the table.
    fn unlist(&mut self) {
        #[cfg(unix)]
        if let Some(slot) = self.slot.take() {
            unix::unlist(slot);
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        #[cfg(unix)]
        if self.slot.is_some() {
            unix::kill_group(self.child.id());
        }
        self.unlist();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Makes SIGTERM, SIGINT and SIGHUP kill the process group of every running program
/// before they end this process as they otherwise would (a signal this process ignores
/// stays ignored). Programs run in groups of their own, so without this a terminal's
/// Ctrl-C or a `kill` would leave them running.
pub fn stop_programs_on_signals() -> io::Result<()> {
    #[cfg(unix)]
    {
        unix::install_handlers()
    }
    #[cfg(not(unix))]
    {
        Ok(())
    }
}

#[cfg(unix)]
mod unix {
    use super::{Program, MAX_PROGRAMS};
    use libc::c_int;
    use std::io;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::SeqCst};

    /// The groups of running programs: 0 is a free entry, [`RESERVED`] one taken by a
    /// program being started, anything else a group id.
    static GROUPS: [AtomicI32; MAX_PROGRAMS] = [const { AtomicI32::new(0) }; MAX_PROGRAMS];
    const RESERVED: i32 = -1;
    /// Programs being started (between taking an entry and filling it in).
    static STARTING: AtomicUsize = AtomicUsize::new(0);
    /// Set by the signal handler: no program may start any more.
    static STOPPING: AtomicBool = AtomicBool::new(false);
    /// The signals that kill the groups.
    const SIGNALS: [c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

    /// The set of [`SIGNALS`].
    fn signal_set() -> libc::sigset_t {
        // SAFETY: sigemptyset initialises the set before sigaddset uses it.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for s in SIGNALS {
                libc::sigaddset(&mut set, s);
            }
            set
        }
    }

    /// Keeps [`SIGNALS`] from this thread while alive, so that the handler never runs in
    /// the middle of a start on the thread doing it (it would wait for that start).
    struct SignalsHeld(libc::sigset_t);

    impl SignalsHeld {
        fn new() -> SignalsHeld {
            let set = signal_set();
            // SAFETY: both sets are valid; the old mask is restored on drop.
            unsafe {
                let mut old: libc::sigset_t = std::mem::zeroed();
                libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
                SignalsHeld(old)
            }
        }
    }

    impl Drop for SignalsHeld {
        fn drop(&mut self) {
            // SAFETY: restores the mask saved by `new`.
            unsafe {
                libc::pthread_sigmask(libc::SIG_SETMASK, &self.0, std::ptr::null_mut());
            }
        }
    }

    /// Counts a start in [`STARTING`] while alive.
    struct Starting;

    impl Starting {
        fn new() -> Starting {
            STARTING.fetch_add(1, SeqCst);
            Starting
        }
    }

    impl Drop for Starting {
        fn drop(&mut self) {
            STARTING.fetch_sub(1, SeqCst);
        }
    }

    pub(super) fn spawn(cmd: &mut Command) -> io::Result<Program> {
        cmd.process_group(0);
        // The program must not inherit the signals held below: without this it would
        // start with them blocked and ignore a plain `kill`.
        // SAFETY: runs in the child between fork and exec, calling only
        // async-signal-safe functions on a set of its own.
        unsafe {
            cmd.pre_exec(|| {
                let mut none: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut none);
                if libc::pthread_sigmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) != 0 {
                    return Err(io::Error::other("could not clear the signal mask"));
                }
                Ok(())
            });
        }
        // Dropped in reverse order: the start is counted out before the signals come back.
        let _held = SignalsHeld::new();
        let _starting = Starting::new();
        if STOPPING.load(SeqCst) {
            return Err(io::Error::other("this process is being stopped"));
        }
        let slot = GROUPS
            .iter()
            .position(|g| g.compare_exchange(0, RESERVED, SeqCst, SeqCst).is_ok())
            .ok_or_else(|| {
                io::Error::other(format!(
                    "more than {MAX_PROGRAMS} programs would run at once"
                ))
            })?;
        match cmd.spawn() {
            Ok(child) => match i32::try_from(child.id()) {
                Ok(pid) => {
                    GROUPS[slot].store(pid, SeqCst);
                    Ok(Program {
                        child,
                        slot: Some(slot),
                    })
                }
                Err(_) => {
                    GROUPS[slot].store(0, SeqCst);
                    let mut child = child;
                    let _ = child.kill();
                    let _ = child.wait();
                    Err(io::Error::other("the program's process id is out of range"))
                }
            },
            Err(e) => {
                GROUPS[slot].store(0, SeqCst);
                Err(e)
            }
        }
    }

    pub(super) fn unlist(slot: usize) {
        GROUPS[slot].store(0, SeqCst);
    }

    /// Kills the group led by our unreaped child `pid`, after checking (on Linux) that it
    /// does lead it, and that it is not our own group.
    pub(super) fn kill_group(pid: u32) {
        let Ok(pid) = i32::try_from(pid) else { return };
        // SAFETY: getpgrp cannot fail.
        let own = unsafe { libc::getpgrp() };
        if pid > 1 && pid != own && leads_own_group(pid) {
            // SAFETY: a plain system call; an error (no such group) is harmless.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }

    /// Whether process `pid` (alive or a zombie) leads its own process group: read from
    /// `/proc/PID/stat` on Linux; elsewhere true, as programs are started that way.
    pub(crate) fn leads_own_group(pid: i32) -> bool {
        if cfg!(not(target_os = "linux")) {
            return true;
        }
        // Fields after the command name (in parentheses): state, ppid, pgrp, …
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(2))
                    .and_then(|g| g.parse::<i32>().ok())
            })
            == Some(pid)
    }

    /// How child `pid` ended, if it did, leaving it unreaped.
    #[cfg(target_os = "linux")]
    pub(super) fn peek_exit(pid: u32) -> Option<std::process::ExitStatus> {
        use std::os::unix::process::ExitStatusExt;
        // SAFETY: waitid fills `info`, which is plain data; WNOWAIT leaves the child be.
        let info = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            if libc::waitid(libc::P_PID, pid, &mut info, flags) != 0 {
                return None;
            }
            info
        };
        // SAFETY: after a successful waitid these fields are those of a child's state.
        let (who, status) = unsafe { (info.si_pid(), info.si_status()) };
        if who == 0 {
            return None;
        }
        // Rebuild the raw wait status that ExitStatus understands.
        let raw = match info.si_code {
            libc::CLD_EXITED => (status & 0xff) << 8,
            libc::CLD_KILLED => status & 0x7f,
            libc::CLD_DUMPED => (status & 0x7f) | 0x80,
            _ => return None,
        };
        Some(std::process::ExitStatus::from_raw(raw))
    }

    /// Kills every listed group (from the signal handler: only async-signal-safe calls).
    fn kill_all() {
        // SAFETY: getpgrp and kill are async-signal-safe system calls.
        unsafe {
            let own = libc::getpgrp();
            for g in &GROUPS {
                let pgid = g.load(SeqCst);
                if pgid > 1 && pgid != own {
                    libc::kill(-pgid, libc::SIGKILL);
                }
            }
        }
    }

    extern "C" fn on_signal(sig: c_int) {
        STOPPING.store(true, SeqCst);
        // Let starts under way list their groups (each takes one fork): at most 2 s.
        let pause = libc::timespec {
            tv_sec: 0,
            tv_nsec: 1_000_000,
        };
        for _ in 0..2000 {
            if STARTING.load(SeqCst) == 0 {
                break;
            }
            // SAFETY: nanosleep is async-signal-safe.
            unsafe {
                libc::nanosleep(&pause, std::ptr::null_mut());
            }
        }
        kill_all();
        // End the process the way the signal would have: default action, raised again
        // (it is blocked in the handler and delivered when the handler returns).
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    pub(super) fn install_handlers() -> io::Result<()> {
        for sig in SIGNALS {
            // SAFETY: sigaction reads and writes plain structs; the handler only makes
            // async-signal-safe calls.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if old.sa_sigaction == libc::SIG_IGN {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                action.sa_mask = signal_set();
                action.sa_flags = libc::SA_RESTART;
                if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
        }
        Ok(())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::unix::leads_own_group;
    use super::*;
    use std::os::unix::process::CommandExt;

    #[test]
    fn only_a_group_leader_has_its_group_killed() {
        // Whether this test process leads its group depends on how it was started; the
        // answer must match what /proc says about it.
        let me = std::process::id() as i32;
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
        let pgrp: i32 = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .nth(2)
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(leads_own_group(me), pgrp == me);
        let mut child = Command::new("sleep")
            .arg("5")
            .process_group(0)
            .spawn()
            .unwrap();
        assert!(leads_own_group(child.id() as i32));
        let mut plain = Command::new("sleep").arg("5").spawn().unwrap();
        assert!(
            !leads_own_group(plain.id() as i32),
            "a child in our group does not lead one"
        );
        for c in [&mut child, &mut plain] {
            c.kill().unwrap();
            c.wait().unwrap();
        }
    }

    #[test]
    fn a_program_starts_with_no_signal_held_and_in_a_group_of_its_own() {
        use std::io::Read;
        // Signals are held on this thread while it starts a program, never in the program.
        // The shell reads its own status with builtins only: a shell holds every signal
        // while it starts a command, so a command reading the shell's mask races with it.
        let mut cmd = Command::new("sh");
        cmd.args([
            "-c",
            "while read -r k v; do [ \"$k\" = SigBlk: ] && echo \"SigBlk: $v\"; done < /proc/$$/status; \
             read -r _pid _comm _state _ppid pgrp _rest < /proc/$$/stat; echo \"$pgrp\"",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
        let mut p = Program::spawn(&mut cmd).unwrap();
        let pid = p.child.id();
        let (_, mut stdout, _) = p.pipes().unwrap();
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        let mut lines = out.lines();
        let blocked = lines.next().and_then(|l| l.strip_prefix("SigBlk:"));
        assert_eq!(blocked.map(str::trim), Some("0000000000000000"), "{out}");
        assert_eq!(lines.next(), Some(pid.to_string().as_str()), "{out}");
        p.stop();
    }

    #[test]
    fn an_exit_is_seen_without_reaping_and_its_status_kept() {
        let mut p = Program::spawn(Command::new("sh").args(["-c", "exit 7"])).unwrap();
        let pid = p.child.id();
        let status = loop {
            if let Some(s) = p.exit_status() {
                break s;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        assert_eq!(status.code(), Some(7));
        // Still a zombie of ours: its pid (the group's id) is not free for reuse yet.
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let state = stat.rsplit_once(')').unwrap().1.split_whitespace().next();
        assert_eq!(state, Some("Z"));
        p.stop();
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());

        let mut p = Program::spawn(Command::new("sh").args(["-c", "kill -9 $$"])).unwrap();
        let status = loop {
            if let Some(s) = p.exit_status() {
                break s;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(9));
        p.stop();
    }
}
