#pragma once

#include "redis/redisvalue.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>

namespace LockScope::Guide {

// One key as the observer read it after a step: its type, fields or value, and PTTL (-2 absent, -1 no TTL).
struct KeyState
{
    QByteArray name;
    QByteArray type = "none"; // "none", "hash", "string", ...
    QList<QPair<QByteArray, QByteArray>> fields; // a hash's fields in the server's order
    QByteArray value; // a string's value
    qint64 pttl = -2;

    bool exists() const { return type != "none"; }
    QByteArray field(const QByteArray &name) const
    {
        for (const auto &[f, v] : fields) {
            if (f == name)
                return v;
        }
        return {};
    }
};

// What a guided client did or went through, for the lanes of the window and the CLI's lines.
enum class ActorEvent {
    None,
    Acquired, // the lock is this thread's now
    NotAcquired, // tryLock() answered false
    Subscribed, // the SUBSCRIBE was confirmed (or an entry was reused: detail says)
    Unsubscribed,
    Sleeping, // waiting on the latch: ms = the timer, -1 for none
    WokenByMessage,
    WokenByTimer,
    PermitKept, // a message came while nobody slept: the permit waits for the next one who does
    BudgetSpent, // tryLock's wait time ran out
    Released, // unlock answered 1
    StillHeld, // unlock answered 0: one level less
    Refused, // unlock answered nil: IllegalMonitorStateException
    ReplyLost, // the script ran but its reply is dropped on purpose (G14)
    RenewalSent,
    RenewalDropped, // the renewal answered 0 for a lock: Redisson drops it without a word
    WatchdogStopped,
    Started, // a client in a process of its own is running: detail names its pid
    Killed,
    Frozen,
    Thawed,
    Expired, // Redis: the key's TTL ran out (keyspace event)
    Deleted, // Redis: the key was deleted (keyspace event)
};

// One line of the guided demo's log: a command on the wire, an event of a client or of Redis, or the narration
// of a step. Values travel by copy through queued signals.
struct GuideRecord
{
    enum class Type { Step, Wire, Event };
    Type type = Type::Wire;
    int step = 0; // the step (1-based) that caused it
    qint64 tMs = 0; // since the scenario started, on the player's monotonic clock
    QByteArray actor; // "A1", "B", "Redis"
    QByteArray op; // "EVAL", "SUBSCRIBE", "SET", ...
    QByteArray script; // the guided script's id for an EVAL: "acquire", "unlock-4", ...
    QList<QByteArray> keys;
    QList<QByteArray> argv;
    bool hasReply = false;
    RedisValue reply;
    QList<QByteArray> calls; // what the script ran, in order (MONITOR), or inferred
    bool callsInferred = false;
    QString java; // what the Java caller sees: "acquired", "false", "IllegalMonitorStateException: ..."
    ActorEvent event = ActorEvent::None;
    qint64 ms = -1; // an event's figure: the timer slept for, the time woken after
    qint64 pid = 0; // a client in a process of its own: started, killed, frozen, thawed
    QList<KeyState> state; // after a step
    // A publish's receivers: the clients listening on the channel when the script published (PUBLISH's own count),
    // -1 when nothing was published.
    int receivers = -1;
    // The clients listening on the scenario's channel: after a step as PUBSUB NUMSUB read it, or after a SUBSCRIBE
    // or UNSUBSCRIBE as the player counts them, so that the window follows them as they happen; -1 unknown.
    int listeners = -1;
    QString narration;
    QString detail;
    bool unexpected = false;
    QStringList seen; // when unexpected: what happened instead of each expectation
};

} // namespace LockScope::Guide

Q_DECLARE_METATYPE(LockScope::Guide::GuideRecord)
