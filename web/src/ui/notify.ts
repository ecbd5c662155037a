import { notifications } from '@mantine/notifications';

/** Spec section 9: success 2 s, error 4 s, default 4 s, loading until closed. */
export const TOAST_MS = { success: 2_000, error: 4_000, info: 4_000 } as const;

interface ToastOptions {
  title?: string;
  /** Override the kind's default duration. */
  autoClose?: number | false;
  id?: string;
}

export const notify = {
  success(message: string, options: ToastOptions = {}) {
    return notifications.show({ color: 'green', message, autoClose: TOAST_MS.success, ...options });
  },
  error(message: string, options: ToastOptions = {}) {
    return notifications.show({ color: 'red', message, autoClose: TOAST_MS.error, ...options });
  },
  info(message: string, options: ToastOptions = {}) {
    return notifications.show({ color: 'blue', message, autoClose: TOAST_MS.info, ...options });
  },
  loading(message: string, options: ToastOptions = {}) {
    return notifications.show({
      loading: true,
      message,
      autoClose: false,
      withCloseButton: false,
      ...options,
    });
  },
  /** Closes a toast (a loading one, once its work has ended). */
  hide(id: string) {
    notifications.hide(id);
  },
};
