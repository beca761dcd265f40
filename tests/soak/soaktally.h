#pragma once

#include "demo/demoevent.h"
#include "monitor/lockrecord.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QStringList>

namespace LockScope::Soak {

// Holds started and ended per lock and owner: what the demo clients did against what the monitor reported.
// A monitor reads state, so a hold that comes and goes between two reads of the key (the demo's own
// acquire-then-release while stopping) cannot be seen; every hold that lasted kObservableMs must be.
struct Tally
{
    static constexpr qint64 kObservableMs = 20;
    struct Counts
    {
        qint64 acquired = 0;
        qint64 ended = 0;
        qint64 acquiredObservable = 0; // generated only: holds that lasted at least kObservableMs
        qint64 endedObservable = 0;
    };
    QHash<QByteArray, Counts> counts; // "name owner"
    QHash<QByteArray, QDateTime> open; // generated only: when each current hold began

    void addGenerated(const DemoEvent &e);
    void addSeen(const LockEvent &e);
    void closeOpenHolds(); // generated only: holds still open at the end lasted long enough to be seen
    qint64 total(qint64 Counts::*field) const;
    QJsonObject toJson() const;
};

// Lock/owner pairs ("name owner") whose reported holds fall outside [observable, all generated].
QList<QByteArray> mismatchedKeys(const Tally &generated, const Tally &seen);
// The same, as readable lines.
QStringList differences(const Tally &generated, const Tally &seen);

// Both sides' recent events per lock/owner pair, printed for a mismatch: a race that shows once in many runs is
// only worth its failure when the failure says what happened.
class Story
{
public:
    static constexpr int kLinesPerKey = 64; // a long soak keeps only the latest
    void add(const QByteArray &key, const QString &line);
    QStringList of(const QByteArray &key) const;

private:
    QHash<QByteArray, QStringList> m_lines;
};

// This process: resident set in KiB and open file descriptors, from /proc.
qint64 residentKiB();
int openFds();

} // namespace LockScope::Soak
