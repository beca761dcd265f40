#pragma once

#include <QByteArray>
#include <QStringList>

#include <functional>
#include <optional>

namespace LockScope {

struct LockHolder;
struct LockInfo;

// What is known of one holder beyond the lock's own keys: its renewals as the monitor saw them, the liveness verdict
// with its evidence, and the connection that speaks for it. Plain data for the JSON writer and the views; the
// monitor, the liveness judge and the owner directory fill it.
struct HolderFacts
{
    qint64 lastRenewedMs = -1; // age of the last renewal seen; -1: none seen
    qint64 renewalPeriodMs = -1; // the period observed between renewals; -1: not observed
    double missedRenewals = -1; // renewal periods overdue (0 = on time, 1 = one period late); -1: unknown
    int transitions = -1; // the lock's owner changes seen; -1: not watched
    QByteArray liveness; // "alive", "likely-dead", "unknown"; empty: not judged
    QStringList livenessEvidence;
    struct Connection
    {
        QByteArray addr;
        QByteArray name;
        QByteArray lib;
        qint64 seenMs = 0; // epoch ms
        bool gone = false;
    };
    std::optional<Connection> connection;
};

// The facts of a lock's holder, or nullopt when nothing is known of it.
using HolderFactsSource = std::function<std::optional<HolderFacts>(const LockInfo &lock, const LockHolder &holder)>;

} // namespace LockScope
