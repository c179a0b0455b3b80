//! Parallel work with in-order results: a feeder thread pulls items (file names, checksum
//! lines) and starts their work on the rayon pool; the calling thread gets each result as
//! soon as it and every earlier one are ready. At most [`WINDOW`] items are between the oldest
//! one not yet handed back and the newest one pulled, so memory stays bounded however many
//! items there are and however slow one of them is.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::time::Duration;

/// Items in flight at most: enough to keep every core busy on small files, small enough
/// that the results waiting behind a big file cost little.
pub(crate) const WINDOW: usize = 256;

/// How long the consumer waits for the next result before it is told [`Event::Waiting`]:
/// short enough to go unnoticed, long enough that a fast stream of results is not written
/// out one at a time.
const IDLE: Duration = Duration::from_millis(20);

/// Where an item's work runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// On the rayon pool, in parallel with other items.
    Pool,
    /// On the feeder thread, in item order (reading standard input, which must be read by one
    /// item after another, in order).
    Feeder,
    /// Nowhere: the item needs no work (a misformatted line, say).
    Nothing,
}

/// What the consumer is told.
#[derive(Debug)]
pub(crate) enum Event<T, R> {
    /// The next item in order, with the result of its work (`None` for [`Place::Nothing`]).
    Ready(T, Option<R>),
    /// No result came for a while and the consumer is about to wait (time to flush).
    Waiting,
}

type Done<T, R> = (usize, T, Option<R>);

/// Runs `work` on `items`, calling `consume` in item order. `consume` returning
/// `ControlFlow::Break` stops reading items; work already started still finishes, work
/// queued but not started is skipped.
pub(crate) fn run<T, R, I, W, C>(items: I, work: W, mut consume: C)
where
    I: Iterator<Item = (T, Place)> + Send,
    T: Send,
    R: Send,
    W: Fn(&T) -> R + Sync,
    C: FnMut(Event<T, R>) -> ControlFlow<()>,
{
    let cancel = AtomicBool::new(false);
    let (done_tx, done_rx) = mpsc::channel::<Done<T, R>>();
    // A permit per item in flight: the feeder takes one before each item, the consumer
    // returns one per item handed back.
    let (permit_tx, permit_rx) = mpsc::sync_channel::<()>(WINDOW);
    std::thread::scope(|scope| {
        let (work, cancel) = (&work, &cancel);
        scope.spawn(move || feed(items, work, done_tx, permit_tx, cancel));
        if drain(done_rx, permit_rx, &mut consume).is_break() {
            cancel.store(true, Ordering::Relaxed);
        }
        // Leaving the scope joins the feeder, which waits for the work it started.
    });
}

/// [`run`] on the calling thread, one item after the other: for a few small inputs, where
/// starting the feeder and the pool would cost more than the work (a few hundred
/// microseconds of a process that lives about a millisecond). Before work that may block
/// ([`Place::Feeder`]: standard input) the consumer is told [`Event::Waiting`], so what is
/// ready is seen first.
pub(crate) fn run_here<T, R, I, W, C>(items: I, work: W, mut consume: C)
where
    I: Iterator<Item = (T, Place)>,
    W: Fn(&T) -> R,
    C: FnMut(Event<T, R>) -> ControlFlow<()>,
{
    for (item, place) in items {
        let result = match place {
            Place::Nothing => None,
            Place::Feeder => {
                if consume(Event::Waiting).is_break() {
                    return;
                }
                Some(work(&item))
            }
            Place::Pool => Some(work(&item)),
        };
        if consume(Event::Ready(item, result)).is_break() {
            return;
        }
    }
}

fn feed<T, R, I, W>(
    items: I,
    work: &W,
    done: Sender<Done<T, R>>,
    permits: SyncSender<()>,
    cancel: &AtomicBool,
) where
    I: Iterator<Item = (T, Place)>,
    T: Send,
    R: Send,
    W: Fn(&T) -> R + Sync,
{
    rayon::in_place_scope(|scope| {
        for (index, (item, place)) in items.enumerate() {
            // Blocks while WINDOW items are in flight; fails once the consumer stopped.
            if permits.send(()).is_err() || cancel.load(Ordering::Relaxed) {
                break;
            }
            let sent = match place {
                Place::Nothing => done.send((index, item, None)),
                Place::Feeder => {
                    let result = work(&item);
                    done.send((index, item, Some(result)))
                }
                Place::Pool => {
                    let done = done.clone();
                    scope.spawn(move |_| {
                        if cancel.load(Ordering::Relaxed) {
                            return;
                        }
                        let result = work(&item);
                        // The consumer may have stopped; the result is then not wanted.
                        let _ = done.send((index, item, Some(result)));
                    });
                    Ok(())
                }
            };
            if sent.is_err() {
                break;
            }
        }
    });
}

/// Hands results back in order; returns `Break` when the consumer asked to stop.
fn drain<T, R, C>(
    done: Receiver<Done<T, R>>,
    permits: Receiver<()>,
    consume: &mut C,
) -> ControlFlow<()>
where
    C: FnMut(Event<T, R>) -> ControlFlow<()>,
{
    // Slot i holds item `next + i` once its result arrived.
    let mut pending: VecDeque<Option<(T, Option<R>)>> = VecDeque::new();
    let mut next = 0usize;
    loop {
        while let Some(slot) = pending.front_mut()
            && let Some((item, result)) = slot.take()
        {
            pending.pop_front();
            next += 1;
            // Give back the permit this item took (it is there: taken before the item).
            let _ = permits.try_recv();
            consume(Event::Ready(item, result))?;
        }
        let (index, item, result) = match done.recv_timeout(IDLE) {
            Ok(d) => d,
            Err(RecvTimeoutError::Timeout) => {
                consume(Event::Waiting)?;
                match done.recv() {
                    Ok(d) => d,
                    Err(_) => return ControlFlow::Continue(()),
                }
            }
            Err(RecvTimeoutError::Disconnected) => return ControlFlow::Continue(()),
        };
        let offset = index - next;
        if pending.len() <= offset {
            pending.resize_with(offset + 1, || None);
        }
        pending[offset] = Some((item, result));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(n: usize, place: impl Fn(usize) -> Place + Sync) -> Vec<(usize, Option<usize>)> {
        let mut got = Vec::new();
        run(
            (0..n).map(|i| (i, place(i))),
            |&i| {
                // Early items finish last, so results arrive out of order.
                if i < 8 {
                    std::thread::sleep(Duration::from_millis(8 - i as u64));
                }
                i * 2
            },
            |e| {
                if let Event::Ready(i, r) = e {
                    got.push((i, r));
                }
                ControlFlow::Continue(())
            },
        );
        got
    }

    #[test]
    fn results_come_back_in_order() {
        let n = 3 * WINDOW + 7;
        let got = collect(n, |i| match i % 5 {
            0 => Place::Nothing,
            1 => Place::Feeder,
            _ => Place::Pool,
        });
        let want: Vec<_> = (0..n).map(|i| (i, (i % 5 != 0).then_some(i * 2))).collect();
        assert_eq!(got, want);
        assert!(collect(0, |_| Place::Pool).is_empty());
    }

    /// On the calling thread, results come in order too, and a break stops at once.
    #[test]
    fn run_here_hands_back_in_order_and_stops_on_break() {
        let mut got = Vec::new();
        let mut waits = 0;
        run_here(
            (0..10).map(|i| (i, [Place::Pool, Place::Feeder, Place::Nothing][i % 3])),
            |&i| i * 2,
            |e| {
                match e {
                    Event::Ready(i, r) => got.push((i, r)),
                    Event::Waiting => waits += 1,
                }
                if got.len() == 8 {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            },
        );
        let want: Vec<_> = (0..8).map(|i| (i, (i % 3 != 2).then_some(i * 2))).collect();
        assert_eq!(got, want);
        // Before each standard-input item (1, 4, 7).
        assert_eq!(waits, 3);
    }

    #[test]
    fn break_stops_reading_items() {
        let pulled = std::sync::atomic::AtomicUsize::new(0);
        let mut seen = 0;
        run(
            (0..100_000).map(|i| {
                pulled.fetch_add(1, Ordering::Relaxed);
                (i, Place::Pool)
            }),
            |&i| i,
            |e| {
                if let Event::Ready(..) = e {
                    seen += 1;
                    if seen == 10 {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, 10);
        assert!(pulled.load(Ordering::Relaxed) <= 10 + WINDOW + 2);
    }

    #[test]
    fn window_bounds_items_in_flight() {
        // The first item's work blocks until the feeder has pulled as much as it can.
        let pulled = std::sync::atomic::AtomicUsize::new(0);
        let max_ahead = std::sync::atomic::AtomicUsize::new(0);
        run(
            (0..10 * WINDOW).map(|i| {
                pulled.fetch_add(1, Ordering::Relaxed);
                (i, Place::Pool)
            }),
            |&i| {
                if i == 0 {
                    std::thread::sleep(Duration::from_millis(200));
                    max_ahead.store(pulled.load(Ordering::Relaxed), Ordering::Relaxed);
                }
            },
            |_| ControlFlow::Continue(()),
        );
        let ahead = max_ahead.load(Ordering::Relaxed);
        assert!((WINDOW..=WINDOW + 2).contains(&ahead), "{ahead}");
    }
}
