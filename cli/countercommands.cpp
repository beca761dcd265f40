#include "countercommands.h"

#include "lock/lockclient.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <unistd.h>

namespace LockScope::Cli {

CounterCommand::CounterCommand(
    CounterPlan::Action action, const QCommandLineParser &parser, ConnectionOptions connection, QObject *parent)
    : Command(parser, std::move(connection), parent)
    , m_action(action)
{ }

void CounterCommand::start()
{
    CounterPlan plan;
    plan.action = m_action;
    plan.name = lockName();
    if (m_action == CounterPlan::Action::AddPermits && m_parser.isSet(QStringLiteral("permits"))) {
        bool ok = false;
        plan.permits = m_parser.value(QStringLiteral("permits")).toLongLong(&ok);
        if (!ok || plan.permits < 1 || plan.permits > 1000000000) {
            m_out.error(tr("--permits takes a number of permits from 1 to 1000000000"));
            finish(ExitUsage);
            return;
        }
    }
    if (m_action == CounterPlan::Action::ReleasePermit) {
        plan.permitId = m_parser.value(QStringLiteral("permit")).toUtf8();
        if (plan.permitId.isEmpty()) {
            m_out.error(tr("release-permit needs --permit ID, the permit's id as show lists it"));
            finish(ExitUsage);
            return;
        }
    }
    if (m_action == CounterPlan::Action::Open) {
        plan.countShown = m_parser.value(QStringLiteral("expect-count")).toUtf8();
        bool ok = plan.countShown.isEmpty();
        if (!ok)
            plan.countShown.toLongLong(&ok);
        if (!ok) {
            m_out.error(tr("--expect-count takes the latch's count, an integer"));
            finish(ExitUsage);
            return;
        }
    }
    // A monitor never writes: refused before any prompt, as force-release is.
    if (m_connection.readOnly) {
        finish(m_out.fail(
            RedisError(RedisError::Kind::ReadOnly, tr("%1 refused: read-only mode").arg(plan.actionName()))));
        return;
    }
    const bool confirmed = m_parser.isSet(QStringLiteral("yes"));
    if (m_action == CounterPlan::Action::Open && !confirmed && !isatty(STDIN_FILENO)) {
        m_out.error(tr("open-latch needs --yes when standard input is not a terminal"));
        finish(ExitUsage);
        return;
    }
    if (!auditable(plan.actionName()))
        return;
    LockClient *client = makeClient();
    if (const RedisError error = client->validateName(plan.name)) {
        finish(m_out.fail(error));
        return;
    }
    if (m_action != CounterPlan::Action::Open || !plan.countShown.isEmpty()) {
        if (m_action == CounterPlan::Action::Open && !confirmed
            && !confirm(tr("Open %1 (count %2) and let every waiter through? [y/N] ")
                            .arg(escapeBytes(plan.name, 200), QString::fromLatin1(plan.countShown))))
            return;
        run(plan);
        return;
    }
    // Only a latch is asked about: anything else is refused before the prompt, with the reason show gives. The count
    // on screen becomes the guard: a latch that counted down meanwhile is not opened.
    Ops::inspectCounter(client, plan, [this, plan, confirmed](const CounterNow &now) mutable {
        if (now.error.isError()) {
            finish(m_out.fail(now.error));
            return;
        }
        if (!now.exists) {
            m_out.error(tr("%1 does not exist: nothing to open").arg(escapeBytes(plan.name, 200)));
            finish(ExitNotDone);
            return;
        }
        plan.countShown = now.value;
        plan.judged = true; // the reading shown is the one the action runs on
        if (!confirmed
            && !confirm(tr("Open %1 (count %2) and let every waiter through? [y/N] ")
                            .arg(escapeBytes(plan.name, 200), escapeBytes(plan.countShown, 40))))
            return;
        run(plan);
    });
}

void CounterCommand::run(const CounterPlan &plan)
{
    auto *client = findChild<LockClient *>();
    Ops::counterAction(client, m_connection.auditTarget(), plan, [this, plan](const CounterDone &d) {
        audit(d.record);
        if (d.error.isError()) {
            finish(m_out.fail(d.error));
            return;
        }
        switch (d.outcome) {
        case AuditRecord::Outcome::Done:
            m_out.event(QStringLiteral("released"), plan.name, {}, d.value.toLongLong(), -1, d.summary);
            finish(ExitDone);
            return;
        case AuditRecord::Outcome::Released:
            m_out.event(QStringLiteral("released"), plan.name, plan.permitId, 0, -1, d.summary);
            finish(ExitDone);
            return;
        case AuditRecord::Outcome::Deleted:
            m_out.event(QStringLiteral("force-released"), plan.name, {}, 0, -2, d.summary);
            finish(ExitDone);
            return;
        case AuditRecord::Outcome::GuardFailed:
            m_out.error(tr("%1. Run the command again to confirm what is there now").arg(d.summary));
            break;
        default:
            m_out.error(d.summary);
            break;
        }
        finish(ExitNotDone);
    });
}

} // namespace LockScope::Cli
