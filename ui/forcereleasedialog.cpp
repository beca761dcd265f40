#include "forcereleasedialog.h"

#include "confirmguard.h"
#include "kinds/lockactions.h"
#include "kinds/locklayouts.h"
#include "liveness/holderwatch.h"
#include "livenesstext.h"
#include "models/locktexts.h"
#include "ops/auditlog.h"
#include "redis/bytesformat.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace LockScope {

ForceReleaseDialog::ForceReleaseDialog(
    const LockNow &now, const LockInfo *seen, const HolderWatch *watch, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Force release"));
    const LockLayout &lockLayout = *now.layout;
    const LockInfo::Kind kind = lockLayout.kind();
    QString holders;
    for (const LockHolder &h : now.holders) {
        m_holders << h.owner;
        m_holderCounts << h;
        // An owner id is one word: a wrapped one reads as two owners.
        holders += QStringLiteral("<li><tt style=\"white-space:nowrap\">%1</tt> — %2</li>")
                       .arg(escapeBytes(h.owner, 200).toHtmlEscaped(), tr("count %1").arg(h.count));
    }
    const QString ttl = now.ttlMs < 0 ? tr("no TTL") : tr("TTL %1").arg(LockTexts::durationText(now.ttlMs));
    m_waiters = seen ? seen->waiters : -1;
    if (lockLayout.capabilities().queue && seen && !seen->queue.isEmpty() && lockLayout.lockActions()) {
        // Waiters that queue each listen on a channel of their own, and the force release wakes the head's: nobody
        // listens on the lock's plain channel (docs/protocol/fair.md#force-release).
        m_queueHead = seen->queue.first().first;
        m_channel = lockLayout.lockActions()->waitChannel(now.name, m_queueHead);
        m_waiters = qMax(m_waiters, int(seen->queue.size()));
    } else if (lockLayout.capabilities().wakeChannel) {
        m_channel = lockLayout.recogniser().releaseChannel(now.name);
    }
    // One token (a string lock; a sorted set's or a unique job's several are listed as holders are).
    if (lockLayout.capabilities().tokenHolder && !lockLayout.capabilities().holderSet && !now.holders.isEmpty()) {
        // The token on screen is the whole guard: the delete is a compare-and-delete against exactly it.
        m_text = tr(
            "<p>Delete <b>%1</b> (%2, %3), held by the token <tt style=\"white-space:nowrap\">%4</tt>.</p>"
            "<p>Waiters are woken as its library's own release wakes them (python-redis-lock's signal list, a Spring "
            "registry's channel); the others find it free at their next try. The "
            "real owner still believes it holds the lock: its own release will find another token and do "
            "nothing, and until then it may work next to the new holder.</p>"
            "<p>Only deleted if the key still holds this token when the request reaches the server.</p>")
                     .arg(escapeBytes(now.name, 200).toHtmlEscaped(), LockTexts::kindText(kind), ttl,
                         escapeBytes(now.holders.first().owner, 200).toHtmlEscaped());
    } else {
        m_text = tr("<p>Delete <b>%1</b> (%2%3, %4), held by:</p><ul>%5</ul>"
                    "<p>%6 The real owner still believes it holds the lock: its own unlock will "
                    "fail later, and until then it may work next to the new holder.</p>"
                    "<p>Only deleted if the holders are still exactly these when the request reaches the server.</p>")
                     .arg(escapeBytes(now.name, 200).toHtmlEscaped(), LockTexts::kindText(kind),
                         now.mode.isEmpty() ? QString() : QStringLiteral(", %1").arg(LockLayouts::modeText(now.mode)),
                         ttl, holders, wakeText().toHtmlEscaped());
    }
    if (watch)
        m_text += livenessHtml(now, *watch);
    m_text += tr("<p>The attempt is recorded in the audit log <tt>%1</tt>, whatever its outcome.</p>")
                  .arg(AuditLog::path().toHtmlEscaped());
    // Its shape alone says it is a lock: the person deleting it should know it may be an application's data.
    if (const QString low = seen ? lowConfidenceText(*seen) : QString(); !low.isEmpty())
        m_text = QStringLiteral("<p><b>%1</b></p>").arg(low.toHtmlEscaped()) + m_text;
    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(m_text, this);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    layout->addWidget(label);
    // Why, for the audit record and whoever reads it tomorrow.
    auto *reasonLabel = new QLabel(tr("&Reason (goes into the audit record):"), this);
    m_reason = new QLineEdit(this);
    m_reason->setPlaceholderText(tr("e.g. INC-4711: holder pod killed"));
    reasonLabel->setBuddy(m_reason);
    layout->addWidget(reasonLabel);
    layout->addWidget(m_reason);
    m_shownName = escapeBytes(now.name, 200);
    m_nameLabel = new QLabel(tr("This is a <b>production</b> server. Type the lock's name to confirm:"), this);
    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(m_shownName);
    m_nameLabel->setBuddy(m_name);
    m_nameLabel->hide();
    m_name->hide();
    layout->addWidget(m_nameLabel);
    layout->addWidget(m_name);
    connect(m_name, &QLineEdit::textChanged, this, &ForceReleaseDialog::updateConfirm);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_confirm = buttons->addButton(tr("&Force release"), QDialogButtonBox::DestructiveRole);
    layout->addWidget(buttons);
    ConfirmGuard::install(this); // Return and Enter cancel, whatever has focus
    connect(m_confirm, &QPushButton::clicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void ForceReleaseDialog::setProduction(bool production)
{
    m_production = production;
    m_nameLabel->setVisible(production);
    m_name->setVisible(production);
    updateConfirm();
}

QString ForceReleaseDialog::reason() const
{
    return m_reason->text().trimmed();
}

bool ForceReleaseDialog::confirmed() const
{
    return !m_production || m_name->text() == m_shownName;
}

void ForceReleaseDialog::updateConfirm()
{
    m_confirm->setEnabled(confirmed());
}

QString ForceReleaseDialog::livenessHtml(const LockNow &now, const HolderWatch &watch)
{
    // The lock as read now, the monitor's record for its renewals (HolderWatch looks it up by name).
    LockInfo lock;
    lock.name = now.name;
    lock.kind = now.layout ? now.layout->kind() : LockInfo::Kind::NotALock;
    lock.holders = now.holders;
    lock.ttlMs = now.ttlMs;
    lock.mode = now.mode;
    QString html = LivenessText::headingHtml(int(now.holders.size()));
    for (const LockHolder &h : now.holders) {
        const LivenessVerdict v = watch.verdict(lock, h);
        if (now.holders.size() > 1)
            html += QStringLiteral("<p style=\"margin-bottom:0px\"><tt style=\"white-space:nowrap\">%1</tt></p>")
                        .arg(escapeBytes(h.owner, 200).toHtmlEscaped());
        html += LivenessText::verdictHtml(v)
            + QStringLiteral("<p style=\"margin-top:2px\"><i>%1</i></p>")
                  .arg(LivenessText::releaseMeaning(v.state).toHtmlEscaped());
    }
    return html;
}

QString ForceReleaseDialog::wakeText() const
{
    const QString channel = escapeBytes(m_channel, 200);
    if (m_channel.isEmpty())
        return tr("Its waiters are woken as its library's release wakes them.");
    if (!m_queueHead.isEmpty())
        return tr("The head of its queue of %n waiter(s), %1, is woken on its own channel %2; the others take their "
                  "turns after it.",
            nullptr, m_waiters)
            .arg(escapeBytes(m_queueHead, 200), channel);
    if (m_waiters < 0)
        return tr("Its waiters listening on %1 are woken (how many was not read).").arg(channel);
    if (m_waiters == 0)
        return tr("Nobody is listening on %1 for it: there is no waiter to wake.").arg(channel);
    return tr("The %n waiter(s) listening on %1 are woken.", nullptr, m_waiters).arg(channel);
}

} // namespace LockScope
