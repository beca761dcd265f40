#include "livenesstext.h"

#include "base/durationtext.h"
#include "liveness/holderwatch.h"

#include <QDateTime>

namespace LockScope {

namespace {
QString clockText(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs).toString(QStringLiteral("HH:mm:ss"));
}

QString listHtml(const QStringList &items)
{
    if (items.isEmpty())
        return {};
    QString html = QStringLiteral("<ul style=\"margin-top:0px; margin-bottom:0px\">");
    for (const QString &item : items)
        html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
    return html + QStringLiteral("</ul>");
}
} // namespace

QString LivenessText::headingHtml(int holders)
{
    return QStringLiteral("<p style=\"margin-bottom:0px\"><b>%1</b></p>")
        .arg(holders > 1 ? tr("Are its holders alive?") : tr("Is its holder alive?"));
}

QString LivenessText::verdictHtml(const LivenessVerdict &v)
{
    // The state in bold, the rest of the summary (its signals) as it is: "likely dead (renewals stopped, …)".
    const QString state = LivenessVerdict::stateText(v.state);
    const QString summary = v.summary.startsWith(state)
        ? QStringLiteral("<b>%1</b>%2").arg(state.toHtmlEscaped(), v.summary.mid(state.size()).toHtmlEscaped())
        : QStringLiteral("<b>%1</b>").arg(v.summary.toHtmlEscaped());
    return QStringLiteral("<p style=\"margin-bottom:0px\">%1</p>").arg(summary) + listHtml(v.evidence);
}

QString LivenessText::releaseMeaning(LivenessVerdict::State state)
{
    switch (state) {
    case LivenessVerdict::State::Alive:
        return tr("Its holder is still working: releasing it lets another client in beside it, and both act as if "
                  "each alone held the lock.");
    case LivenessVerdict::State::LikelyDead:
        return tr("Its holder is most likely gone: nobody will release this lock, and releasing it lets its waiters "
                  "in now rather than when its lease runs out.");
    case LivenessVerdict::State::Unknown:
        break;
    }
    return tr("Nothing seen says for certain whether its holder is alive: release it only if you know that it is "
              "gone or stuck (Tools › Trace clients names its connection).");
}

QString LivenessText::connectionsHtml(const OwnerPresence &presence)
{
    if (presence.connections.isEmpty())
        return QStringLiteral("<p style=\"margin:0px\">%1</p>")
            .arg(tr("Connection: not known (Tools › Trace clients names it)").toHtmlEscaped());
    QString html;
    for (const OwnerConnection &c : presence.connections) {
        QString where = QString::fromUtf8(c.addr);
        if (!c.name.isEmpty())
            where = tr("%1 (%2)").arg(QString::fromUtf8(c.name), where);
        if (!c.lib.isEmpty())
            where = tr("%1, %2").arg(where, QString::fromUtf8(c.lib));
        const QString seen = c.source == OwnerConnection::Source::Trace ? tr("traced at %1").arg(clockText(c.seenMs))
                                                                        : tr("named after it");
        QString state;
        switch (presence.state) {
        case OwnerPresence::State::Connected:
            state = tr("open (CLIENT LIST at %1)").arg(clockText(presence.listedMs));
            break;
        case OwnerPresence::State::Gone:
            state = tr("gone: not in CLIENT LIST since %1")
                        .arg(clockText(presence.goneSinceMs > 0 ? presence.goneSinceMs : presence.listedMs));
            break;
        case OwnerPresence::State::Unknown:
            state = tr("not listed yet");
            break;
        }
        html += QStringLiteral("<p style=\"margin:0px\">%1</p>")
                    .arg(tr("Connection: %1, %2 — %3").arg(where, seen, state).toHtmlEscaped());
    }
    return html;
}

QString LivenessText::renewalsHtml(const RenewalFigures &f)
{
    QString line;
    if (f.lastRenewedMs < 0)
        line = tr("Renewals: none seen in this hold");
    else if (f.periodMs <= 0)
        line = tr("Renewals: last %1 ago, the period not known yet").arg(durationText(f.lastRenewedMs));
    else
        line = tr("Renewals: last %1 ago, every %2, %3 missed")
                   .arg(durationText(f.lastRenewedMs), durationText(f.periodMs),
                       f.missed >= 0 ? QString::number(f.missed, 'f', 1) : QStringLiteral("?"));
    QString html = QStringLiteral("<p style=\"margin:0px\">%1</p>").arg(line.toHtmlEscaped());
    if (f.transitions > 0)
        html += QStringLiteral("<p style=\"margin:0px\">%1</p>")
                    .arg(tr("Owner changes seen: %1").arg(f.transitions).toHtmlEscaped());
    return html;
}

QString LivenessText::moreHoldersHtml(int more)
{
    return QStringLiteral("<p><i>%1</i></p>")
        .arg(
            tr("%1 more holders are not judged here (see lockscope-cli show for every one)").arg(more).toHtmlEscaped());
}

QString LivenessText::holderHtml(const HolderWatch &watch, const LockInfo &lock, const LockHolder &holder)
{
    const LivenessVerdict v = watch.verdict(lock, holder);
    return verdictHtml(v) + connectionsHtml(watch.directory().presence(holder)) + renewalsHtml(v.figures);
}

} // namespace LockScope
