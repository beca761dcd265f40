// serve-metrics --reap-policy FILE: the guarded reaper beside the metrics (docs/reap-policy.md#serve-metrics).
#include "metricscommand.h"

#include "liveness/holderwatch.h"
#include "lock/lockclient.h"
#include "monitor/lockmonitor.h"
#include "reclaim/reaprun.h"
#include "reclaim/reapwatch.h"

#include <QTimer>

namespace LockScope::Cli {

bool ServeMetricsCommand::loadReapPolicy()
{
    if (!m_parser.isSet(QStringLiteral("reap-policy")))
        return true;
    QString error;
    m_reapPolicy = ReapPolicy::load(m_parser.value(QStringLiteral("reap-policy")), &error);
    if (!m_reapPolicy) {
        m_out.error(error);
        finish(ExitUsage);
        return false;
    }
    m_reapGauges.enabled = true;
    m_reapGauges.policy = m_reapPolicy->name.toUtf8();
    for (const ReapRule &rule : std::as_const(m_reapPolicy->rules))
        m_reapGauges.candidates << qMakePair(rule.name.toUtf8(), qint64(0));
    if (!m_reapPolicy->unattended)
        return true;
    if (m_connection.readOnly) {
        m_out.error(tr("warning: read-only mode: policy %1 is unattended, but its reports are only reported")
                        .arg(m_reapPolicy->name));
        return true;
    }
    // Releasing on its own: only where it can be audited, and on production with the policy's name typed.
    if (production() && m_parser.value(QStringLiteral("confirm-name")) != m_reapPolicy->name) {
        m_out.error(tr("%1 is a production server: an unattended reaper needs --confirm-name %2 (the policy's name "
                       "typed)")
                        .arg(m_profile->name, m_reapPolicy->name));
        finish(ExitUsage);
        return false;
    }
    return auditable(QStringLiteral("reap"));
}

void ServeMetricsCommand::startReaper()
{
    if (!m_reapPolicy || m_reaper)
        return;
    HolderWatch *holders = holderWatch(m_monitor->connection());
    holders->setMonitor(m_monitor);
    m_reaper = new ReapWatch(*m_reapPolicy, m_connection.auditTarget(), m_monitor, holders, this);
    // A judgement is a CLIENT LIST and the heartbeats: every few seconds is enough to tell for how long.
    m_reaper->setJudgeEvery(5000);
    m_reaper->follow();
    auto *timer = new QTimer(this);
    connect(timer, &QTimer::timeout, this, [this] { reapRound(); });
    timer->start(int(qMin<qint64>(m_reapPolicy->everyMs, 24 * 3600 * 1000)));
    // The first report once the verdicts have had their verdict_for (or right away).
    QTimer::singleShot(int(qMin<qint64>(m_reapPolicy->observeMs(), 24 * 3600 * 1000)), this, [this] { reapRound(); });
}

void ServeMetricsCommand::reapRound()
{
    if (m_reaping || m_finished)
        return;
    m_reaping = true;
    m_reaper->judgeNow([this](const ReapReport &report) { reapReported(report); });
}

void ServeMetricsCommand::reapReported(const ReapReport &report)
{
    for (auto &[rule, count] : m_reapGauges.candidates) {
        count = 0;
        for (const ReapItem &item : report.items)
            if (item.action == ReapItem::Action::Release && item.rule.toUtf8() == rule)
                ++count;
    }
    const qsizetype toRelease = report.toRelease().size();
    const bool acting = m_reapPolicy->unattended && !m_connection.readOnly && toRelease > 0;
    if (toRelease > 0) {
        QJsonObject line = report.summaryJson(!acting);
        line.insert(QStringLiteral("action"), QStringLiteral("reap-report"));
        line.insert(QStringLiteral("name"), report.policy);
        line.insert(QStringLiteral("url"), report.server);
        line.insert(QStringLiteral("outcome"), tr("%n to release", nullptr, int(toRelease)));
        notify(line);
    }
    if (!acting) {
        m_reaping = false;
        return;
    }
    if (!m_client)
        makeClient();
    if (!m_client || m_finished) {
        m_reaping = false;
        return;
    }
    // Unattended: the report is its own approval, and this very judgement its re-check; each release is guarded by
    // the hold it shows all the same.
    ReapRunPlan plan;
    plan.approved = report;
    plan.now = report;
    plan.reason = m_parser.isSet(QStringLiteral("reason"))
        ? m_parser.value(QStringLiteral("reason"))
        : tr("serve-metrics reaper, unattended policy %1").arg(report.policy);
    Ops::reap(m_client, m_connection.auditTarget(), plan, [this](const ReapRunDone &done) {
        m_reaping = false;
        if (done.error.isError()) {
            m_out.error(done.error.message());
            return;
        }
        for (const AuditRecord &record : done.records)
            audit(record);
        for (const ReapItem &item : done.result.items) {
            if (item.action != ReapItem::Action::Release)
                continue;
            if (item.error.isError() || item.verified == "still-held")
                ++m_reapGauges.failed;
            else if (!item.leftAlone.isEmpty())
                ++m_reapGauges.leftAlone;
            else if (item.outcome)
                ++m_reapGauges.released;
        }
        m_out.error(done.summary);
    });
}

} // namespace LockScope::Cli
