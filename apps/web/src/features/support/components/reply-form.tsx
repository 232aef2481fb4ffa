import { isMessageKey, type SupportDetail, SupportReplySchema } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { toast } from '../../../shared/ui/toast';
import { supportRequestQuery } from '../api/get-support-request';
import { replySupportRequest } from '../api/reply-support-request';
import { ImageField } from './image-field';
import { type PickedImage, wireImage } from './support-image';
import { SupportTextField } from './text-field';

/** The member writes again, with an optional screenshot; the thread shows it at once. */
export function ReplyForm({ request }: { request: SupportDetail }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [image, setImage] = useState<PickedImage | null>(null);
  const [imageKey, setImageKey] = useState(0);
  const form = useForm<z.input<typeof SupportReplySchema>, unknown, z.output<typeof SupportReplySchema>>({
    resolver: zodResolver(SupportReplySchema),
    mode: 'onTouched',
    defaultValues: { id: request.id, text: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const error = errors.text?.message;

  const onSubmit = async (values: z.output<typeof SupportReplySchema>) => {
    try {
      const thread = await replySupportRequest({
        id: request.id,
        text: values.text,
        ...(image ? { image: wireImage(image) } : {}),
      });
      client.setQueryData(supportRequestQuery(request.id).queryKey, thread);
      void client.invalidateQueries({ queryKey: ['me', 'support', 'list'] });
      toast.success(t('msg:supportReplySent'));
      form.reset({ id: request.id, text: '' });
      setImage(null);
      // A new picker: the old one still names the sent file.
      setImageKey((key) => key + 1);
    } catch {
      // The API client showed the reason (a request closed meanwhile, a refused image…).
    }
  };

  return (
    <form
      className="card form support-form"
      noValidate
      onSubmit={form.handleSubmit(onSubmit)}
      aria-labelledby="support-reply-title"
    >
      <h2 id="support-reply-title">{t('support.reply.title')}</h2>
      <SupportTextField
        id="support-reply-text"
        label={t('support.reply.text')}
        length={form.watch('text').length}
        error={error ? t(`msg:${isMessageKey(error) ? error : 'invalidValue'}`) : undefined}
        registration={form.register('text')}
        rows={4}
      />
      <ImageField key={imageKey} id="support-reply-image" image={image} onChange={setImage} />
      <button type="submit" className="button button-primary" disabled={isSubmitting}>
        {isSubmitting ? t('common.loading') : t('support.reply.send')}
      </button>
    </form>
  );
}
