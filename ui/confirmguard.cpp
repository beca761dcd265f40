#include "confirmguard.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QPushButton>
#include <QRegularExpression>

namespace LockScope::ConfirmGuard {

namespace {
// The text without its mnemonic, in either language's form: "&Force release", "强制释放(&F)"; "&&" stays a literal "&".
QString withoutMnemonic(QString text)
{
    static const QRegularExpression cjk(QStringLiteral("\\(&[^&]\\)"));
    text.remove(cjk);
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return text;
}

// A button that acts has no Alt+letter: Alt+F, the reflex for the File menu, force-released a lock (issue 47). Only a
// click, or Tab to it and Space, presses it. Its text is set again without the mnemonic, which clears the shortcut
// QAbstractButton made of it, whatever the translation's mnemonic is.
void dropMnemonic(QPushButton *button)
{
    const QString text = withoutMnemonic(button->text());
    if (text != button->text())
        button->setText(text);
    button->setShortcut(QKeySequence());
}

class Guard : public QObject
{
public:
    Guard(QDialog *dialog, Focus focus)
        : QObject(dialog)
        , m_dialog(dialog)
        , m_focus(focus)
    {
        apply();
        dialog->installEventFilter(this);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_dialog && event->type() == QEvent::Show) {
            QPushButton *cancel = apply();
            if (cancel && m_focus == Focus::Cancel)
                cancel->setFocus(Qt::OtherFocusReason);
        }
        return false;
    }

private:
    QPushButton *cancelButton() const
    {
        for (QDialogButtonBox *box : m_dialog->findChildren<QDialogButtonBox *>())
            for (QAbstractButton *button : box->buttons())
                if (box->buttonRole(button) == QDialogButtonBox::RejectRole)
                    if (auto *push = qobject_cast<QPushButton *>(button))
                        return push;
        return nullptr;
    }

    QPushButton *apply()
    {
        QPushButton *cancel = cancelButton();
        for (QPushButton *button : m_dialog->findChildren<QPushButton *>()) {
            button->setAutoDefault(false);
            button->setDefault(false);
            if (button != cancel)
                dropMnemonic(button);
        }
        if (cancel)
            cancel->setDefault(true);
        return cancel;
    }

    QDialog *m_dialog;
    Focus m_focus;
};
} // namespace

void install(QDialog *dialog, Focus focus)
{
    new Guard(dialog, focus);
}

} // namespace LockScope::ConfirmGuard
