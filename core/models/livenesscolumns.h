#pragma once

#include "liveness/livenessjudge.h"
#include "liveness/renewalfigures.h"

#include <QCoreApplication>
#include <QStringList>
#include <QVariant>

namespace LockScope {

class HolderWatch;
struct LockRecord;

// The lock table's Renewed and Liveness columns, as texts and sort keys: a hold's renewals as numbers (from the record
// and the monotonic clock, so the age counts up with no timer of its own) and the verdict on its holders.
class LivenessColumns
{
    Q_DECLARE_TR_FUNCTIONS(LockScope::LockTableModel)
public:
    // At most this many holders of one lock are judged for a row: a sorted set's hundred permits would cost a hundred
    // verdicts for each repaint of each visible row. The detail pane judges every one.
    static constexpr int kMaxJudged = 16;

    // "3.2 s / 10.0 s", "25.0 s / 10.0 s · 1.5 late", "3.2 s / ?" (one renewal, no period yet), "—" (none seen).
    static QString renewedText(const RenewalFigures &figures);
    static QString renewedToolTip(const RenewalFigures &figures);
    // Missed renewals first (in tenths), then the age of the last renewal; -1: none seen.
    static qint64 renewedSortValue(const RenewalFigures &figures);

    // The holders' verdicts, the worst first in rank (likely dead, unknown, alive).
    struct Holders
    {
        LivenessVerdict worst;
        int judged = 0; // 0: no holder (a semaphore, a latch)
        QStringList toolTip; // every judged holder's summary and evidence; filled when asked for
    };
    static Holders judge(const HolderWatch &watch, const LockRecord &record, bool withToolTip);
    // Likely dead 0, unknown 1, alive 2: what the column sorts by, likely dead first.
    static int rank(LivenessVerdict::State state);

    // The table's data for the Renewed column (liveness false) or the Liveness column, in the table's roles:
    // display, tooltip, SortRole, and LockTableModel::LivenessRole or MissedRenewalsRole. watch nullptr: nothing
    // judged.
    static QVariant data(const HolderWatch *watch, const LockRecord &record, qint64 nowMs, bool liveness, int role);
    static QString headerToolTip(bool liveness);
};

} // namespace LockScope
