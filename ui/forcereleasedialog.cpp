#include "forcereleasedialog.h"

#include "confirmguard.h"
#include "kinds/locklayouts.h"
#include "models/locktablemodel.h"
#include "redis/bytesformat.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace LockScope {

ForceReleaseDialog::ForceReleaseDialog(const LockRecord &record, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Force release"));
    const LockInfo &info = record.info;
    QString holders;
    for (const LockHolder &h : info.holders) {
        m_holders << h.owner;
        m_holderCounts << h;
        holders += QStringLiteral("<li><tt>%1</tt> — %2</li>")
                       .arg(escapeBytes(h.owner, 200).toHtmlEscaped(), tr("count %1").arg(h.count));
    }
    const QString ttl
        = record.deadlineMs < 0 ? tr("no TTL") : LockTableModel::durationText(record.remainingMs(monotonicMs()));
    if (LockLayouts::forRecord(info.kind).capabilities().tokenHolder && !info.holders.isEmpty()) {
        // The token on screen is the whole guard: the delete is a compare-and-delete against exactly it.
        m_text = tr(
            "<p>Delete <b>%1</b> (%2, TTL %3), held by the token <tt>%4</tt>.</p>"
            "<p>Waiters are woken as its library's own release wakes them (python-redis-lock's signal list, a Spring "
            "registry's channel); the others find it free at their next try. The "
            "real owner still believes it holds the lock: its own release will find another token and do "
            "nothing, and until then it may work next to the new holder.</p>"
            "<p>Only deleted if the key still holds this token when the request reaches the server.</p>")
                     .arg(escapeBytes(info.name, 200).toHtmlEscaped(), LockTableModel::kindText(info.kind), ttl,
                         escapeBytes(info.holders.first().owner, 200).toHtmlEscaped());
    } else {
        m_text = tr("<p>Delete <b>%1</b> (%2%3, TTL %4), held by:</p><ul>%5</ul>"
                    "<p>Its waiters are woken. The real owner still believes it holds the lock: its own unlock will "
                    "fail later, and until then it may work next to the new holder.</p>"
                    "<p>Only deleted if the holders are still exactly these when the request reaches the server.</p>")
                     .arg(escapeBytes(info.name, 200).toHtmlEscaped(), LockTableModel::kindText(info.kind),
                         info.mode.isEmpty() ? QString() : QStringLiteral(", %1").arg(QString::fromLatin1(info.mode)),
                         ttl, holders);
    }
    // Its shape alone says it is a lock: the person deleting it should know it may be an application's data.
    if (const QString low = lowConfidenceText(info); !low.isEmpty())
        m_text = QStringLiteral("<p><b>%1</b></p>").arg(low.toHtmlEscaped()) + m_text;
    auto *layout = new QVBoxLayout(this);
    auto *label = new QLabel(m_text, this);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    layout->addWidget(label);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_confirm = buttons->addButton(tr("&Force release"), QDialogButtonBox::DestructiveRole);
    layout->addWidget(buttons);
    ConfirmGuard::install(this); // Return and Enter cancel, whatever has focus
    connect(m_confirm, &QPushButton::clicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

} // namespace LockScope
