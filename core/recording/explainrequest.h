#pragma once

#include <QByteArray>
#include <QString>

namespace LockScope {

// What an error pasted from a service's log asks about: whose hold (Redisson names its holder exactly as LockScope
// shows it), which lock (python-redis-lock and Redisson's watchdog name it), and when (a log line's own time).
struct ExplainRequest
{
    QByteArray owner; // "<client id>:<thread id>"; empty: whoever held the lock last
    QByteArray lock; // empty: the owner's last hold, whichever lock it was
    qint64 aroundMs = -1; // epoch ms the error was seen; -1: the end of the recording
    QByteArray library; // the library whose message it is ("redisson", "redsync", ...); empty: none recognised
    QString recognised; // for people: which message it was ("Redisson's unlock of a lock it does not hold")
    bool unlockFailed = false; // the message is an unlock (or extend) that found the hold gone

    // Reads a pasted message (a whole log line, a stack trace) and fills what it says; false when it is none of the
    // messages LockScope knows (docs/recording.md#explain lists them).
    static bool parse(const QString &text, ExplainRequest *request);
    // A log line's time: ISO 8601 or "2026-11-26 03:12:15,123", with its zone or, without one, local time; -1: none.
    static qint64 timeIn(const QString &text);
};

} // namespace LockScope
