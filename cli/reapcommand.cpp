#include "reapcommand.h"

#include "inspectcommands.h"

#include "liveness/holderwatch.h"
#include "lock/lockclient.h"
#include "monitor/lockmonitor.h"
#include "reclaim/reaprun.h"
#include "reclaim/reapwatch.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <algorithm>

#include <unistd.h>

namespace LockScope::Cli {

void ReapCommand::start()
{
    m_dryRun = m_parser.isSet(QStringLiteral("dry-run"));
    const bool confirmed = m_parser.isSet(QStringLiteral("yes"));
    const bool approving = m_parser.isSet(QStringLiteral("approve"));
    if (!m_parser.isSet(QStringLiteral("policy"))) {
        m_out.error(tr("reap needs --policy FILE (docs/reap-policy.md)"));
        finish(ExitUsage);
        return;
    }
    QString error;
    m_policy = ReapPolicy::load(m_parser.value(QStringLiteral("policy")), &error);
    if (!m_policy) {
        m_out.error(error);
        finish(ExitUsage);
        return;
    }
    qint64 observeMs = m_policy->observeMs();
    if (m_parser.isSet(QStringLiteral("observe"))) {
        bool ok = false;
        const int extra = m_parser.value(QStringLiteral("observe")).toInt(&ok);
        if (!ok || extra < 0 || extra > 24 * 3600 * 1000) {
            m_out.error(tr("--observe takes milliseconds (0 to 86400000)"));
            finish(ExitUsage);
            return;
        }
        observeMs = qMax<qint64>(observeMs, extra);
    }
    if (m_dryRun && approving) {
        m_out.error(tr("--dry-run changes nothing, so there is nothing to approve: give one or the other"));
        finish(ExitUsage);
        return;
    }
    if (!m_dryRun) {
        if (m_connection.readOnly) {
            finish(m_out.fail(RedisError(RedisError::Kind::ReadOnly, tr("reap refused: read-only mode"))));
            return;
        }
        // Without a person at a terminal, only an approval (or a policy written to run unattended) may release.
        if (!approving && !confirmed && !isatty(STDIN_FILENO)) {
            m_out.error(tr("reap needs --approve (the dry run's report), --yes or --dry-run when standard input is not "
                           "a terminal"));
            finish(ExitUsage);
            return;
        }
        if (!approving && confirmed && !m_policy->unattended) {
            m_out.error(tr("policy %1 is not unattended: run reap --dry-run, have its report read, and pass its "
                           "report_sha256 or the report file to --approve (or set unattended: true in the policy)")
                            .arg(m_policy->name));
            finish(ExitUsage);
            return;
        }
        if (approving) {
            m_approval = ReapApproval::read(m_parser.value(QStringLiteral("approve")), &error);
            if (!m_approval) {
                m_out.error(error);
                finish(ExitNotDone);
                return;
            }
            if (m_approval->report && m_approval->report->policySha256 != m_policy->sha256) {
                m_out.error(tr("the approved report was made under another version of policy %1; nothing was "
                               "released")
                                .arg(m_policy->name));
                finish(ExitNotDone);
                return;
            }
            if (m_approval->report && m_approval->report->server != m_connection.auditTarget()) {
                m_out.error(tr("the approved report is of %1, not %2; nothing was released")
                                .arg(m_approval->report->server, m_connection.auditTarget()));
                finish(ExitNotDone);
                return;
            }
        }
        // On production an approval, like --yes, stands with the policy's name typed beside it.
        if (production() && approving && m_parser.value(QStringLiteral("confirm-name")) != m_policy->name) {
            m_out.error(tr("%1 is a production server: --approve needs --confirm-name %2 (the policy's name typed); "
                           "nothing changed")
                            .arg(m_profile->name, m_policy->name));
            finish(ExitUsage);
            return;
        }
        if (!auditable(QStringLiteral("reap")) || !productionAllows(m_policy->name.toUtf8()))
            return;
    }

    LockMonitor::Options options;
    options.pattern = m_policy->scanPattern();
    options.stringPatterns = stringLockPatterns();
    auto *monitor = new LockMonitor(readOnly(m_connection), options, this);
    HolderWatch *holders = holderWatch(monitor->connection());
    holders->setMonitor(monitor);
    m_watch = new ReapWatch(*m_policy, m_connection.auditTarget(), monitor, holders, this);
    // Each judgement reads CLIENT LIST: every second for a short watch, sixty times over a long one (at most every
    // 15 s), which is enough to tell for how long a verdict has held.
    m_watch->setJudgeEvery(int(std::clamp<qint64>(observeMs / 60, 1000, 15000)));
    // Not even the server's kind is known: nothing to judge, and nothing will be.
    connect(monitor->connection(), &RedisCommander::disconnected, this, [this, monitor](const RedisError &error) {
        if (monitor->connection()->mode() == RedisRouter::Mode::Probing)
            finish(m_out.fail(error));
    });
    if (!m_out.json() && observeMs > 0)
        m_out.line(tr("watching %1 for %2 ms (the policy's longest verdict_for)…")
                       .arg(QString::fromUtf8(options.pattern))
                       .arg(observeMs));
    m_watch->report(observeMs, [this](const ReapReport &report) { reported(report); });
    monitor->start();
}

void ReapCommand::reported(const ReapReport &report)
{
    if (m_finished)
        return;
    if (m_dryRun) {
        print(report, true);
        QJsonObject line = report.summaryJson(true);
        line.insert(QStringLiteral("action"), QStringLiteral("reap-report"));
        line.insert(QStringLiteral("name"), report.policy);
        line.insert(QStringLiteral("url"), report.server);
        line.insert(QStringLiteral("outcome"), tr("%n to release", nullptr, int(report.toRelease().size())));
        notify(line);
        finish(ExitDone);
        return;
    }
    if (m_approval) {
        if (!m_approval->report && m_approval->sha256 != report.sha256()) {
            // A bare hash approves one report exactly: anything different now is not what was approved.
            print(report, true);
            m_out.error(tr("this run's report (sha256 %1) is not the one approved (%2): something changed since; "
                           "nothing was released")
                            .arg(QString::fromLatin1(report.sha256()), QString::fromLatin1(m_approval->sha256)));
            finish(ExitNotDone);
            return;
        }
        run(m_approval->report ? *m_approval->report : report, report);
        return;
    }
    print(report, true);
    if (report.toRelease().isEmpty()) {
        finish(ExitDone);
        return;
    }
    if (!m_parser.isSet(QStringLiteral("yes"))
        && !confirm(tr("Release these %n lock hold(s) as their libraries would, waking their waiters? [y/N] ", nullptr,
                        int(report.toRelease().size())),
            production() ? m_policy->name.toUtf8() : QByteArray()))
        return;
    // The re-check: judged again now, after however long the person took.
    m_watch->judgeNow([this, report](const ReapReport &now) { run(report, now); });
}

void ReapCommand::run(const ReapReport &approved, const ReapReport &now)
{
    LockClient *client = makeClient();
    if (m_finished)
        return;
    ReapRunPlan plan;
    plan.approved = approved;
    plan.now = now;
    plan.reason = m_parser.value(QStringLiteral("reason"));
    Ops::reap(client, m_connection.auditTarget(), plan, [this](const ReapRunDone &done) {
        if (done.error.isError()) {
            finish(m_out.fail(done.error));
            return;
        }
        for (const AuditRecord &record : done.records)
            audit(record);
        print(done.result, false, done.unapproved);
        if (!m_out.json())
            m_out.line(done.summary);
        finish(done.allDone() ? ExitDone : ExitNotDone);
    });
}

void ReapCommand::print(const ReapReport &report, bool dryRun, const QList<ReapItem> &unapproved)
{
    if (!m_out.json()) {
        QString text = report.text();
        for (const ReapItem &item : unapproved)
            text += QLatin1Char('\n')
                + tr("  %1  %2: %3").arg(escapeBytes(item.name, 200), escapeBytes(item.owner, 200), item.leftAlone);
        m_out.line(text);
        return;
    }
    for (const ReapItem &item : report.items)
        m_out.jsonLine(item.toJson());
    for (const ReapItem &item : unapproved)
        m_out.jsonLine(item.toJson());
    m_out.jsonLine(report.summaryJson(dryRun));
}

} // namespace LockScope::Cli
