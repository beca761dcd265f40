#include "expirecommand.h"

#include "lock/lockclient.h"
#include "ops/expire.h"
#include "ops/inspect.h"
#include "redis/bytesformat.h"

#include <unistd.h>

namespace LockScope::Cli {

void ExpireCommand::start()
{
    const QByteArray name = lockName();
    const QByteArray expectOwner = unescapeBytes(m_parser.value(QStringLiteral("expect-owner")));
    bool ok = false;
    const qint64 lease = m_parser.value(QStringLiteral("lease")).toLongLong(&ok);
    if (!ok || lease <= 0) {
        m_out.error(tr("expire needs --lease MS, a number of milliseconds above 0"));
        finish(ExitUsage);
        return;
    }
    if (m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("expire refused: read-only mode"))));
        return;
    }
    const bool confirmed = m_parser.isSet(QStringLiteral("yes"));
    if (!confirmed && !isatty(STDIN_FILENO)) {
        m_out.error(tr("expire needs --yes when standard input is not a terminal"));
        finish(ExitUsage);
        return;
    }
    if (!auditable(QStringLiteral("expire")) || !productionAllows(name))
        return;
    LockClient *client = makeClient();
    // One reading: what is shown, what the guard keeps to, the lease it has.
    Ops::inspect(
        client, name,
        [this, name, lease, expectOwner, confirmed](const LockNow &now) {
            if (now.error.isError()) {
                finish(m_out.fail(now.error)); // not a lock: nothing to prompt for
                return;
            }
            if (now.holders.isEmpty()) {
                m_out.error(tr("%1 is not locked: no lease to give").arg(escapeBytes(name, 200)));
                finish(ExitNotDone);
                return;
            }
            warnOnLowConfidence(now);
            const ExpirePlan plan = ExpirePlan::fromReading(now, lease, expectOwner);
            if (const RedisError refusal = plan.refusal()) {
                m_out.error(refusal.message());
                finish(refusal.kind() == RedisError::Kind::InvalidArgument ? ExitUsage : ExitNotDone);
                return;
            }
            if (confirmed || plan.target.ownerMissing()) {
                expire(plan, now);
                return;
            }
            if (confirm(tr("%1\nGive it a lease of %2 ms (it expires then unless its holder renews it)? [y/N] ")
                            .arg(describeHolders(now))
                            .arg(lease),
                    name))
                expire(plan, now);
        },
        LockAction::ForceRelease);
}

void ExpireCommand::expire(const ExpirePlan &plan, const LockNow &shown)
{
    auto *client = findChild<LockClient *>();
    const QByteArray owner = shown.holders.isEmpty() ? QByteArray() : shown.holders.first().owner;
    Ops::expire(client, m_connection.auditTarget(), plan, shown.holders, [this, plan, owner](const ExpireDone &d) {
        audit(d.record);
        if (d.error.isError()) {
            finish(m_out.fail(d.error));
            return;
        }
        if (d.outcome != AuditRecord::Outcome::Done) {
            m_out.error(d.outcome == AuditRecord::Outcome::GuardFailed && plan.target.guardedByShown()
                    ? tr("%1. Run the command again to confirm what is there now").arg(d.summary)
                    : d.summary);
            finish(ExitNotDone);
            return;
        }
        // A lease set is a renewal in the events' vocabulary (conventions: no event of its own).
        m_out.event(QStringLiteral("renewed"), plan.target.name, owner, 0, plan.leaseMs, d.summary);
        finish(ExitDone);
    });
}

} // namespace LockScope::Cli
