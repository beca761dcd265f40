#include "confirmguard.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QPushButton>

namespace LockScope::ConfirmGuard {

namespace {
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
        for (QPushButton *button : m_dialog->findChildren<QPushButton *>()) {
            button->setAutoDefault(false);
            button->setDefault(false);
        }
        QPushButton *cancel = cancelButton();
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
