#pragma once

#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>

namespace LockScope {

// The keys the monitor must read again (an event named them, a deadline passed, a person asked), read in batches of
// one pipeline each, one batch at a time, in the order they were named; a key named twice before its read is read
// once.
class RefreshQueue : public QObject
{
    Q_OBJECT
public:
    // readerIdle: whether a batch may be sent now.
    explicit RefreshQueue(std::function<bool()> readerIdle, QObject *parent = nullptr);

    void mark(const QByteArray &name);
    // The batch whose answer arrived: no batch is in flight after this.
    QList<QByteArray> takeAnswered();
    // After a failed read: the next batch no sooner than delayMs.
    void retryLater(int delayMs) { m_timer.start(delayMs); }
    // After an answered batch: the next one right away, if any key waits.
    void continueNow();
    bool isIdle() const { return m_order.isEmpty() && m_inFlight.isEmpty(); }

signals:
    // Read these now; takeAnswered() gives them back with the answer.
    void batchReady(const QList<QByteArray> &names);

private:
    void sendNext();

    std::function<bool()> m_readerIdle;
    QList<QByteArray> m_order;
    QSet<QByteArray> m_queued;
    QList<QByteArray> m_inFlight;
    QTimer m_timer;
};

} // namespace LockScope
