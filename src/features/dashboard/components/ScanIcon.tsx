/** The Scan button's icon: the corners of a viewfinder around bars. Here, not in the shared icons, so that no other screen's first load carries it. */
import { makeIcon } from '../../../components/ui/icons';

export const ScanIcon = makeIcon(<path d="M3 7V3h4m10 0h4v4m0 10v4h-4M7 21H3v-4M7 8v8m5-8v8m5-8v8" />);
