import { Center, Loader, Stack, Text } from '@mantine/core';

/** A centred spinner with a visible, announced label. */
export function FullScreenLoader({
  label = 'Loading...',
  fullHeight = true,
}: {
  label?: string;
  fullHeight?: boolean;
}) {
  return (
    <Center mih={fullHeight ? '100vh' : 240} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader aria-hidden />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}
