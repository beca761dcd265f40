#include "releaseclientcommand.h"

#include "liveness/holderwatch.h"
#include "lock/lockclient.h"
#include "ops/releaseclient.h"
#include "reclaim/clientverdicts.h"
#include "redis/bytesformat.h"

#include <QJsonArray>

#include <unistd.h>

namespace LockScope::Cli {

namespace {
QString whatText(ClientItem::What what)
{
    switch (what) {
    case ClientItem::What::Hold:
        return ReleaseClientCommand::tr("hold");
    case ClientItem::What::ReadHold:
        return ReleaseClientCommand::tr("read hold");
    case ClientItem::What::Token:
        return ReleaseClientCommand::tr("token");
    case ClientItem::What::QueueEntry:
        return ReleaseClientCommand::tr("queue place");
    }
    return {};
}
} // namespace

void ReleaseClientCommand::start()
{
    // As show prints owners: a binary token is typed with its \\xNN escapes.
    const QByteArray clientId = unescapeBytes(positional(1));
    const bool dryRun = m_parser.isSet(QStringLiteral("dry-run"));
    const bool confirmed = m_parser.isSet(QStringLiteral("yes"));
    if (clientId.isEmpty()) {
        m_out.error(tr("release-client needs the client: its UUID (every thread of it) or one owner UUID:TID"));
        finish(ExitUsage);
        return;
    }
    if (!dryRun && m_connection.readOnly) {
        finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("release-client refused: read-only mode"))));
        return;
    }
    if (!dryRun && !confirmed && !isatty(STDIN_FILENO)) {
        m_out.error(tr("release-client needs --yes (or --dry-run) when standard input is not a terminal"));
        finish(ExitUsage);
        return;
    }
    if (!dryRun && (!auditable(QStringLiteral("release-client")) || !productionAllows(clientId)))
        return;
    LockClient *client = makeClient();
    Ops::findClientHolds(client, clientId, keyPattern(), [this, client, dryRun, confirmed](ClientPlan plan) {
        if (plan.error.isError()) {
            finish(m_out.fail(plan.error));
            return;
        }
        plan.insist = m_parser.isSet(QStringLiteral("even-if-alive"));
        plan.reason = m_parser.value(QStringLiteral("reason"));
        // Whether each holder is alive, from one read (its connections, its process here, a trace's findings):
        // releasing a live holder breaks the exclusion it relies on.
        HolderWatch *watch = holderWatch(client->connection());
        watch->readClients([this, watch, plan, dryRun, confirmed]() mutable {
            judgeClientItems(&plan, *watch);
            report(plan, dryRun, false);
            if (dryRun) {
                finish(ExitDone);
                return;
            }
            if (plan.items.isEmpty()) {
                finish(ExitNotDone); // the report said it holds nothing
                return;
            }
            if (!confirmed
                && !confirm(
                    tr("Release all %n item(s) of %1 and wake their waiters? [y/N] ", nullptr, int(plan.items.size()))
                        .arg(escapeBytes(plan.client, 200)),
                    plan.client))
                return;
            run(plan);
        });
    });
}

void ReleaseClientCommand::report(const ClientPlan &plan, bool dryRun, bool ran)
{
    QJsonArray items;
    QStringList lines;
    for (const ClientItem &item : plan.items) {
        QJsonObject o { { QStringLiteral("name"), Output::jsonText(item.name()) },
            { QStringLiteral("what"), QString::fromLatin1(ClientItem::whatId(item.what)) },
            { QStringLiteral("owner"), Output::jsonText(item.owner) }, { QStringLiteral("count"), item.count } };
        if (item.reading.layout)
            o.insert(QStringLiteral("kind"), QString::fromLatin1(item.reading.layout->id()));
        if (!item.liveness.isEmpty())
            o.insert(QStringLiteral("liveness_summary"), item.liveness);
        if (ran) {
            o.insert(QStringLiteral("outcome"), AuditRecord::outcomeName(item.outcome));
            if (item.error.isError())
                o.insert(QStringLiteral("error"), item.error.toString());
        }
        items.append(o);
        QString line
            = tr("  %1  %2  %3").arg(escapeBytes(item.name(), 200), whatText(item.what), escapeBytes(item.owner, 200));
        if (item.count > 1)
            line += tr("  count %1").arg(item.count);
        if (!item.liveness.isEmpty())
            line += QStringLiteral("  ") + item.liveness;
        if (ran)
            line += QStringLiteral("  → ")
                + (item.error.isError() ? item.error.message() : AuditRecord::outcomeName(item.outcome));
        lines << line;
    }
    QJsonObject json { { QStringLiteral("client"), Output::jsonText(plan.client) }, { QStringLiteral("items"), items },
        { QStringLiteral("dry_run"), dryRun } };
    if (!plan.partial.isEmpty()) {
        json.insert(QStringLiteral("partial"), true);
        json.insert(QStringLiteral("why"), QJsonArray::fromStringList(plan.partial));
    }
    QString human = plan.items.isEmpty()
        ? tr("%1 holds nothing and waits for nothing here").arg(escapeBytes(plan.client, 200))
        : tr("%1 holds or waits for %n item(s):", nullptr, int(plan.items.size())).arg(escapeBytes(plan.client, 200))
            + QLatin1Char('\n') + lines.join(QLatin1Char('\n'));
    for (const QString &why : plan.partial)
        human += QLatin1Char('\n') + tr("partial: %1").arg(why);
    if (!ran || m_out.json())
        m_out.object(json, human);
    else
        m_out.line(human);
}

void ReleaseClientCommand::run(const ClientPlan &plan)
{
    auto *client = findChild<LockClient *>();
    Ops::releaseClient(client, m_connection.auditTarget(), plan, [this](const ClientDone &d) {
        const bool refused = d.error.isError();
        if (!refused || d.error.kind() != RedisError::Kind::ReadOnly)
            audit(d.record);
        if (refused) {
            finish(m_out.fail(d.error));
            return;
        }
        report(d.plan, false, true);
        if (!m_out.json())
            m_out.line(d.summary);
        bool failed = false;
        for (const ClientItem &item : d.plan.items)
            failed = failed || item.error.isError();
        finish(failed ? ExitNotDone : ExitDone);
    });
}

} // namespace LockScope::Cli
