import { Skeleton } from '../../../shared/ui/skeleton';

/** Where the exchange list's sections will be, until they and the list are in: the same box either way. */
export function ShowcaseSkeleton() {
  return (
    <div className="home-skeleton">
      <Skeleton lines={8} />
    </div>
  );
}
