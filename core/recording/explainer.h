#pragma once

#include "recording/explainrequest.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace LockScope {

class RecordingStore;

// One holder's story of one lock, told from a recording (docs/recording.md#explain): when it took the lock, how its
// renewals went (the gaps between them are the pauses), how the hold ended and who held the lock next, what was there
// when the error was seen, and what that means.
struct HoldStory
{
    struct Gap
    {
        qint64 atMs = 0; // the renewal that came late, or the end that came instead of one
        qint64 gapMs = 0; // since the renewal before
        int missed = 0; // renewals that should have come in between
    };

    bool found = false;
    QString notFound; // why there is no story (nothing of that owner recorded, ...)
    QByteArray server, lock, owner, kind, library;
    qint64 acquiredMs = -1; // -1: before the recording
    qint64 leaseMs = -1;
    int renewals = 0;
    qint64 renewalPeriodMs = -1; // the usual interval between its renewals (its watchdog's lease / 3)
    qint64 lastRenewalMs = -1;
    QList<Gap> gaps;
    QByteArray endType; // released, expired, force-released, owner-changed, lost; empty: held when the recording ends
    qint64 endMs = -1;
    QString endBy; // a LockScope action's user@host
    QString endReason;
    QString endAction; // the audit record's action ("force-release", "release-client", ...)
    QByteArray nextOwner;
    qint64 nextMs = -1;
    qint64 aroundMs = -1; // when the error was seen, and the lock's holders then
    QList<QByteArray> holdersAround;
    bool aroundSeen = true; // false: the moment fell in a gap in what was seen
    QStringList story;
    QString meaning;

    QJsonObject toJson() const;
    // For people: the story a line each ("• ..."), then what it means; or why there is none.
    QStringList lines() const;
};

class Explainer
{
public:
    // The story of request's hold from store (a recording opened to read).
    static HoldStory explain(const RecordingStore &store, const ExplainRequest &request, QString *error);
};

} // namespace LockScope
