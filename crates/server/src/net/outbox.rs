//! What a connection has yet to write: the messages its table and its reader queued,
//! bounded in count and in bytes. A client that stops reading makes its queue fill, and a
//! queue that cannot take a message means the client is too slow: the table closes it
//! (it reconnects and gets the whole state again). So a client that never reads holds at
//! most the byte bound of the server's memory, however large or frequent the states are.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

/// What the server's queues hold: every connection's queue together (the server's memory
/// for messages not yet written) and the reviews being made, watched from outside (a test,
/// a monitor) through [`crate::Config::gauges`].
#[derive(Debug, Default)]
pub struct Gauges {
    queued: AtomicUsize,
    most: AtomicUsize,
    slow: AtomicU64,
    reviewing: AtomicUsize,
    most_reviewing: AtomicUsize,
    reviews_made: AtomicU64,
}

impl Gauges {
    /// Bytes queued on every connection now, not yet written.
    pub fn queued_bytes(&self) -> usize {
        self.queued.load(Ordering::SeqCst)
    }

    /// The most bytes one connection's queue has held at once.
    pub fn most_queued_bytes(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }

    /// Connections closed because they did not keep up (their queue was full).
    pub fn slow_closed(&self) -> u64 {
        self.slow.load(Ordering::SeqCst)
    }

    /// Counts one connection closed for not keeping up.
    pub fn closed_slow(&self) {
        self.slow.fetch_add(1, Ordering::SeqCst);
    }

    /// Reviews being made now (read, computed and stored: see [`crate::review`]).
    pub fn reviewing(&self) -> usize {
        self.reviewing.load(Ordering::SeqCst)
    }

    /// The most reviews made at once since the server started.
    pub fn most_reviewing(&self) -> usize {
        self.most_reviewing.load(Ordering::SeqCst)
    }

    /// Reviews computed and stored since the server started.
    pub fn reviews_made(&self) -> u64 {
        self.reviews_made.load(Ordering::SeqCst)
    }

    /// Sets the reviews being made now (and the most at once).
    pub(crate) fn set_reviewing(&self, n: usize) {
        self.reviewing.store(n, Ordering::SeqCst);
        self.most_reviewing.fetch_max(n, Ordering::SeqCst);
    }

    /// Counts one review computed and stored.
    pub(crate) fn made_review(&self) {
        self.reviews_made.fetch_add(1, Ordering::SeqCst);
    }
}

/// The sending half, held by the table (and the connection's reader, for errors).
#[derive(Clone, Debug)]
pub struct OutSender {
    tx: mpsc::Sender<Arc<str>>,
    bytes: Arc<AtomicUsize>,
    max_bytes: usize,
    gauges: Arc<Gauges>,
}

/// The writing half, held by the connection's writer.
#[derive(Debug)]
pub struct OutReceiver {
    rx: mpsc::Receiver<Arc<str>>,
    bytes: Arc<AtomicUsize>,
    gauges: Arc<Gauges>,
}

/// Why a message was not queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The queue is full (messages or bytes): the client is not keeping up.
    Full,
    /// The writer is gone.
    Closed,
}

/// A queue of at most `messages` messages and `max_bytes` bytes (a message is counted
/// from when it is queued until the writer has written it). One message larger than the
/// bound is taken only into an empty queue, so a large state still goes out.
pub fn outbox(messages: usize, max_bytes: usize) -> (OutSender, OutReceiver) {
    outbox_counted(messages, max_bytes, Arc::default())
}

/// [`outbox`], its bytes also counted in `gauges` (shared by every connection).
pub fn outbox_counted(
    messages: usize,
    max_bytes: usize,
    gauges: Arc<Gauges>,
) -> (OutSender, OutReceiver) {
    let (tx, rx) = mpsc::channel(messages.max(1));
    let bytes = Arc::new(AtomicUsize::new(0));
    (
        OutSender {
            tx,
            bytes: bytes.clone(),
            max_bytes,
            gauges: gauges.clone(),
        },
        OutReceiver { rx, bytes, gauges },
    )
}

impl OutSender {
    /// Queues `msg`, or says why not without waiting.
    pub fn try_send(&self, msg: Arc<str>) -> Result<(), Refused> {
        let len = msg.len();
        let before = self.bytes.fetch_add(len, Ordering::SeqCst);
        if before > 0 && before + len > self.max_bytes {
            self.bytes.fetch_sub(len, Ordering::SeqCst);
            return Err(Refused::Full);
        }
        self.tx.try_send(msg).map_err(|e| {
            self.bytes.fetch_sub(len, Ordering::SeqCst);
            match e {
                mpsc::error::TrySendError::Full(_) => Refused::Full,
                mpsc::error::TrySendError::Closed(_) => Refused::Closed,
            }
        })?;
        self.gauges.queued.fetch_add(len, Ordering::SeqCst);
        self.gauges.most.fetch_max(before + len, Ordering::SeqCst);
        Ok(())
    }

    /// Bytes queued and not yet written.
    pub fn queued_bytes(&self) -> usize {
        self.bytes.load(Ordering::SeqCst)
    }

    /// The byte bound of this queue.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }
}

impl OutReceiver {
    /// The next message to write (`None` once every sender is gone). Call
    /// [`OutReceiver::written`] with it once it is written.
    pub async fn recv(&mut self) -> Option<Arc<str>> {
        self.rx.recv().await
    }

    /// The next message if one is queued, without waiting (call
    /// [`OutReceiver::written`] with it too).
    pub fn try_recv(&mut self) -> Option<Arc<str>> {
        self.rx.try_recv().ok()
    }

    /// `msg` left the queue: it is written (or will never be).
    pub fn written(&self, msg: &str) {
        self.bytes.fetch_sub(msg.len(), Ordering::SeqCst);
        self.gauges.queued.fetch_sub(msg.len(), Ordering::SeqCst);
    }
}

impl Drop for OutReceiver {
    /// Messages still queued are dropped with the queue: they leave the server's count.
    fn drop(&mut self) {
        self.rx.close();
        while let Ok(m) = self.rx.try_recv() {
            self.written(&m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bytes_are_bounded_and_given_back_once_written() {
        let (tx, mut rx) = outbox(100, 10);
        assert_eq!(tx.try_send("abcd".into()), Ok(()));
        assert_eq!(tx.try_send("efgh".into()), Ok(()));
        assert_eq!(tx.queued_bytes(), 8);
        // Room for 100 messages, but not for 3 more bytes.
        assert_eq!(tx.try_send("ijk".into()), Err(Refused::Full));
        assert_eq!(tx.queued_bytes(), 8, "a refused message counts for nothing");
        let m = rx.recv().await.unwrap();
        assert_eq!(tx.queued_bytes(), 8, "counted while it is being written");
        rx.written(&m);
        assert_eq!(tx.queued_bytes(), 4);
        assert_eq!(tx.try_send("ijk".into()), Ok(()));
    }

    #[tokio::test]
    async fn one_large_message_goes_into_an_empty_queue_only() {
        let (tx, mut rx) = outbox(100, 10);
        let big: Arc<str> = "x".repeat(50).into();
        assert_eq!(tx.try_send(big.clone()), Ok(()));
        assert_eq!(tx.try_send("a".into()), Err(Refused::Full));
        let m = rx.recv().await.unwrap();
        rx.written(&m);
        assert_eq!(tx.queued_bytes(), 0);
        assert_eq!(tx.try_send("a".into()), Ok(()));
        assert_eq!(tx.try_send(big), Err(Refused::Full));
    }

    #[tokio::test]
    async fn gauges_count_every_queue_and_forget_what_a_dropped_queue_held() {
        let gauges = Arc::new(Gauges::default());
        let (a, mut ra) = outbox_counted(10, 100, gauges.clone());
        let (b, rb) = outbox_counted(10, 100, gauges.clone());
        a.try_send("abcd".into()).unwrap();
        b.try_send("ef".into()).unwrap();
        b.try_send("ghi".into()).unwrap();
        assert_eq!(gauges.queued_bytes(), 9);
        assert_eq!(
            gauges.most_queued_bytes(),
            5,
            "one queue's most, not the sum"
        );
        let m = ra.recv().await.unwrap();
        ra.written(&m);
        assert_eq!(gauges.queued_bytes(), 5);
        drop(rb);
        assert_eq!(gauges.queued_bytes(), 0, "a dropped queue frees its bytes");
        assert_eq!(gauges.most_queued_bytes(), 5);
    }

    #[tokio::test]
    async fn the_message_count_still_bounds() {
        let (tx, rx) = outbox(2, 1000);
        assert_eq!(tx.try_send("a".into()), Ok(()));
        assert_eq!(tx.try_send("b".into()), Ok(()));
        assert_eq!(tx.try_send("c".into()), Err(Refused::Full));
        assert_eq!(tx.queued_bytes(), 2);
        drop(rx);
        assert_eq!(tx.try_send("d".into()), Err(Refused::Closed));
    }
}
