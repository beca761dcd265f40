#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace LockScope {

struct LockEvent;
struct LockInfo;

// One row of a recording's timeline (docs/recording.md#schema): a lock's event as the monitor saw it, or a gap in what
// was seen (the connection lost and found again: never an invented event).
struct RecordedEvent
{
    qint64 timeMs = 0; // epoch ms
    QByteArray server; // the Redis it happened on, as audit records name it
    QByteArray type; // LockEvent::typeName(), "gap-start" or "gap-end"
    QByteArray name; // the lock (its hash when redacted); empty for a gap
    QByteArray owner;
    QByteArray previousOwner;
    qint64 count = 0;
    qint64 ttlMs = -2;
    qint64 lateMs = -1;
    QByteArray kind; // JSON's "kind" at the time, where the monitor knew the lock
    QByteArray library;
    QString detail; // for people: what was seen (a gap's end: how long it lasted, in ms)

    static RecordedEvent fromLockEvent(const LockEvent &event, const QByteArray &server, const LockInfo *lock);
    // Back to the monitor's event, for what folds events (statistics); false for a row that is none (a gap, an
    // audit record).
    bool toLockEvent(LockEvent *event) const;
};

// Names that carry customer ids are stored hashed: "sha256:" and the first 32 hex digits of the name's SHA-256, the
// same for the same name in every recording, so one lock's history is still one history.
class NameRedaction
{
public:
    NameRedaction() = default;
    explicit NameRedaction(QList<QByteArray> globs)
        : m_globs(std::move(globs))
    { }
    bool isEmpty() const { return m_globs.isEmpty(); }
    QByteArray apply(const QByteArray &name) const;
    static QByteArray hashed(const QByteArray &name);

private:
    QList<QByteArray> m_globs;
};

} // namespace LockScope
