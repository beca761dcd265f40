#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QStringList>

namespace LockScope {

class RecordingStore;

// The lease advisor (docs/recording.md#advise): from a window of a recording, each lock's hold times against its
// lease, each client's renewal rhythm (its watchdog's period, and so its lockWatchdogTimeout: three periods) with the
// gaps in it, and verdicts a developer acts on: a fixed lease too short for the work, a renewal gap (a pause), a hold
// far past the usual, clients of one lock renewing on different timeouts.
struct LeaseAdvice
{
    struct Gap
    {
        qint64 atMs = 0;
        qint64 gapMs = 0;
    };
    struct Client
    {
        QByteArray client; // the client id (a Redisson client's UUID; the whole owner for other libraries)
        qint64 renewals = 0;
        qint64 periodMs = -1; // the median interval between its renewals
        qint64 inferredTimeoutMs = -1; // three periods: Redisson renews every third of lockWatchdogTimeout
        QMap<QString, qint64> gapHistogram; // "≤1.5×", "1.5–3×", ">3×" the period
        Gap longestGap;
    };
    struct Verdict
    {
        QByteArray code; // "lease-too-short", "renewal-gap", "long-hold", "mixed-timeouts"
        QString text;
    };
    struct Lock
    {
        QByteArray name, kind, library;
        qint64 holds = 0;
        qint64 p50Ms = -1, p95Ms = -1, maxMs = -1;
        qint64 leaseMs = -1; // the TTL its holds were taken with (the median)
        bool watchdog = false; // its holds were renewed
        double pastTwoThirds = 0; // the share of fixed-lease holds that outlived two thirds of their lease
        qint64 expiries = 0;
        qint64 longestOpenMs = -1; // a hold still going at the window's end, how long so far
        QByteArray longestOpenOwner;
        QList<Client> clients;
        QList<Verdict> verdicts;
        QJsonObject toJson() const;
    };

    QList<Lock> locks; // those with verdicts first, then by holds
    qint64 fromMs = -1, untilMs = -1;

    static bool advise(const RecordingStore &store, const QByteArray &pattern, qint64 sinceMs, qint64 untilMs,
        LeaseAdvice *out, QString *error);
};

} // namespace LockScope
