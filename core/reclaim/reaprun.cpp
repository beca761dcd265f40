#include "reclaim/reaprun.h"

#include "lock/lockclient.h"
#include "ops/inspect.h"
#include "ops/releaseclient.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QPointer>

#include <memory>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Ops", text);
}

// Why an approved item is not released now: what the re-check shows instead.
QString changedText(const ReapItem &approved, const ReapReport &now)
{
    for (const ReapItem &item : now.items) {
        if (!item.sameHold(approved))
            continue;
        if (item.action == ReapItem::Action::OverQuota)
            return QCoreApplication::translate("LockScope::Ops", "over this run's quota now");
        if (item.action == ReapItem::Action::Protected)
            return QCoreApplication::translate("LockScope::Ops", "its name is protected");
    }
    for (const ReapItem &item : now.items)
        if (item.name == approved.name && item.owner == approved.owner)
            return QCoreApplication::translate("LockScope::Ops", "changed since the report (now %1, count %2)")
                .arg(QString::fromLatin1(item.kind))
                .arg(item.count);
    return QCoreApplication::translate("LockScope::Ops",
        "changed since the report: gone, held by someone else, or its rule's signals no longer all hold");
}

AuditRecord recordOf(const QString &url, const QByteArray &clientId, const ReapItem &item, const ReapReport &approved,
    const QByteArray &reportSha256, const QString &reason)
{
    AuditRecord record(QStringLiteral("reap"), url, item.name, clientId);
    record.insert(QStringLiteral("owner"), jsonText(item.owner));
    record.insert(QStringLiteral("count"), item.count);
    record.insert(QStringLiteral("kind"), QString::fromLatin1(item.kind));
    record.insert(QStringLiteral("library"), QString::fromLatin1(item.library));
    record.insert(QStringLiteral("rule"), item.rule);
    record.insert(QStringLiteral("policy"), approved.policy);
    record.insert(QStringLiteral("policy_sha256"), QString::fromLatin1(approved.policySha256));
    record.insert(QStringLiteral("report_sha256"), QString::fromLatin1(reportSha256));
    record.insert(QStringLiteral("evidence"), QJsonArray::fromStringList(item.evidence));
    if (!item.verified.isEmpty())
        record.insert(QStringLiteral("verified"), QString::fromLatin1(item.verified));
    record.setReason(reason);
    if (item.error.isError())
        record.setError(item.error);
    else if (item.outcome)
        record.setOutcome(*item.outcome);
    return record;
}

// After the release: the lock gone, or held by someone else (a waiter woke and took it), or still by the holder.
void verify(LockClient *client, ReapItem item, std::function<void(const ReapItem &)> done)
{
    Ops::inspect(
        client, item.name,
        [item, done](const LockNow &now) mutable {
            if (!now.lock || now.holders.isEmpty())
                item.verified = "gone";
            else if (now.owners().contains(item.owner))
                item.verified = "still-held";
            else
                item.verified = "new-owner";
            done(item);
        },
        LockAction::Release);
}
} // namespace

bool ReapRunDone::allDone() const
{
    if (error.isError())
        return false;
    for (const ReapItem &item : result.items)
        if (item.action == ReapItem::Action::Release
            && (item.error.isError() || !item.leftAlone.isEmpty() || item.verified == "still-held"))
            return false;
    return true;
}

namespace Ops {

void reap(
    LockClient *client, const QString &url, const ReapRunPlan &plan, std::function<void(const ReapRunDone &)> done)
{
    auto state = std::make_shared<ReapRunDone>();
    state->result = plan.approved;
    state->result.partial = plan.now.partial;
    state->error = client->checkWrite("reap", plan.approved.policy.toUtf8());
    const QByteArray clientId = client->clientId();
    auto finish = [state, done] {
        int released = 0, left = 0, failed = 0;
        for (const ReapItem &item : state->result.items) {
            if (item.action != ReapItem::Action::Release)
                continue;
            if (item.error.isError() || item.verified == "still-held")
                ++failed;
            else if (!item.leftAlone.isEmpty())
                ++left;
            else if (item.outcome)
                ++released;
        }
        state->summary = state->error.isError()
            ? state->error.message()
            : QCoreApplication::translate("LockScope::Ops",
                  "reaped %n lock hold(s) as their libraries would, waking their waiters", nullptr, released)
                + (left > 0 ? QCoreApplication::translate(
                       "LockScope::Ops", "; %n had changed since the report and were left alone", nullptr, left)
                            : QString())
                + (failed > 0 ? QCoreApplication::translate("LockScope::Ops", "; %n failed", nullptr, failed)
                              : QString());
        done(*state);
    };
    if (state->error.isError()) {
        QMetaObject::invokeMethod(client, finish, Qt::QueuedConnection);
        return;
    }
    // The re-check: an approved item is released only as the judgement right before acting shows it.
    QList<int> toRun;
    for (int i = 0; i < state->result.items.size(); ++i) {
        ReapItem &item = state->result.items[i];
        if (item.action != ReapItem::Action::Release)
            continue;
        const ReapItem *current = nullptr;
        for (const ReapItem &candidate : plan.now.items)
            if (candidate.sameHold(item) && candidate.action == ReapItem::Action::Release && candidate.lock)
                current = &candidate;
        if (!current) {
            item.leftAlone = changedText(item, plan.now);
            continue;
        }
        // The evidence as judged now: what the release rests on.
        item.lock = current->lock;
        item.evidence = current->evidence;
        item.liveness = current->liveness;
        item.ageMs = current->ageMs;
        item.ageAtLeast = current->ageAtLeast;
        item.ttlMs = current->ttlMs;
        toRun << i;
    }
    // Found now, not approved: not touched, and said (a later run's report will show them).
    for (const ReapItem &item : plan.now.items) {
        if (item.action != ReapItem::Action::Release)
            continue;
        bool approved = false;
        for (const ReapItem &a : std::as_const(state->result.items))
            approved = approved || a.sameHold(item);
        if (!approved) {
            ReapItem extra = item;
            extra.leftAlone = tr("not in the approved report");
            state->unapproved << extra;
        }
    }
    auto next = std::make_shared<std::function<void(int)>>();
    QPointer<LockClient> guard(client);
    const QByteArray reportSha256 = plan.approved.sha256();
    *next = [guard, url, clientId, state, toRun, next, finish, reason = plan.reason, reportSha256](int k) {
        if (!guard)
            return;
        if (k >= toRun.size()) {
            QMetaObject::invokeMethod(
                guard,
                [next, finish] {
                    *next = nullptr; // the cycle through the captured function ends, from outside it
                    finish();
                },
                Qt::QueuedConnection);
            return;
        }
        const int index = toRun.at(k);
        const ReapItem &item = state->result.items.at(index);
        ClientItem hold;
        hold.reading = Ops::readingOf(*item.lock, *guard, LockAction::Release);
        hold.owner = item.owner;
        hold.count = item.count;
        hold.what = ClientItem::holdOf(hold.reading);
        const auto record = [url, clientId, state, index, next, k, reason, reportSha256](ReapItem done) {
            state->result.items[index] = done;
            state->records << recordOf(url, clientId, done, state->result, reportSha256, reason);
            (*next)(k + 1);
        };
        if (hold.reading.error.isError()) {
            ReapItem failed = item;
            failed.error = hold.reading.error;
            failed.outcome = AuditRecord::Outcome::Failed;
            record(failed);
            return;
        }
        Ops::releaseHold(guard, url, hold, [guard, item, record](const ClientItem &released) {
            ReapItem done = item;
            done.outcome = released.outcome;
            done.error = released.error;
            // The script's guard found another hold than the one approved (given back meanwhile, or taken again):
            // nothing was released, and it says how it found it.
            if (!released.error.isError() && released.outcome != AuditRecord::Outcome::Released
                && released.outcome != AuditRecord::Outcome::Deleted)
                done.leftAlone = tr("changed before its release: %1").arg(AuditRecord::outcomeName(released.outcome));
            if (released.error.isError() || !guard) {
                record(done);
                return;
            }
            verify(guard, done, record);
        });
    };
    (*next)(0);
}

} // namespace Ops

} // namespace LockScope
