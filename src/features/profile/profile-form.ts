/** The profile form's values and what of them changed (docs/PRODUCT.md#profile-edit, docs/API.md#patch-profile). */
import {
  MAP_DEFAULT_CENTER,
  phoneDigits,
  type Location,
  type ProfileUpdatePayload,
  type User,
} from '../../../contract';
import { sameLocation } from '../../components/location-picker/format';

export interface ProfileForm {
  full_name: string;
  email: string;
  phone_number: string;
  location: Location;
  current_password: string;
  new_password: string;
  /** With a new password: sign out the partner's other devices too (docs/PRODUCT.md#connected-devices). */
  sign_out_others: boolean;
}

export function formOf(user: User): ProfileForm {
  return {
    full_name: user.full_name,
    email: user.email,
    phone_number: user.partner?.phone_number ?? '',
    location: { ...(user.partner?.location ?? MAP_DEFAULT_CENTER) },
    current_password: '',
    new_password: '',
    sign_out_others: true,
  };
}

/** Only what differs from the stored user; the current password only where the server needs it. */
export function profileChanges(user: User, form: ProfileForm): ProfileUpdatePayload {
  const changes: ProfileUpdatePayload = {};
  const fullName = form.full_name.trim();
  const email = form.email.trim();
  const phone = phoneDigits(form.phone_number);
  if (fullName !== user.full_name) changes.full_name = fullName;
  if (email.toLowerCase() !== user.email.toLowerCase()) changes.email = email;
  if (phone !== (user.partner?.phone_number ?? '')) changes.phone_number = phone;
  if (!sameLocation(form.location, user.partner?.location)) {
    const location: Location = { latitude: form.location.latitude, longitude: form.location.longitude };
    if (form.location.address) location.address = form.location.address;
    changes.location = location;
  }
  if (form.new_password !== '') {
    changes.new_password = form.new_password;
    // Said either way: the server's default (left out, the others end) is not this form's to assume.
    changes.sign_out_others = form.sign_out_others;
  }
  if (changes.email !== undefined || changes.new_password !== undefined) {
    changes.current_password = form.current_password;
  }
  return changes;
}
